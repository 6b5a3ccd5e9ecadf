# Type hints of readperf.dask (issue #17); the docstrings are in dask.py and docs/fleet.md.
import os
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

import pandas as pd

_Path = Union[str, os.PathLike]

COST_KEYS: List[str]
ERROR_COLUMNS: List[str]

class FleetCosts(NamedTuple):
    costs: pd.DataFrame
    per_host: pd.DataFrame
    errors: pd.DataFrame

class MergedProfile(NamedTuple):
    profile: Union[str, bytes]
    errors: pd.DataFrame

def read_samples(paths: Sequence[_Path], hosts: Optional[Sequence[str]] = ...,
                 chunk_bytes: Optional[int] = ..., client: Any = ..., ship: bool = ...,
                 **open_kw: Any) -> Any: ...  # a dask.dataframe.DataFrame
def file_costs(path: _Path, host: Optional[str] = ..., data: Optional[bytes] = ...,
               **open_kw: Any) -> Tuple[pd.DataFrame, Optional[dict]]: ...
def fleet_costs(paths: Sequence[_Path], hosts: Optional[Sequence[str]] = ...,
                client: Any = ..., ship: bool = ..., **open_kw: Any) -> FleetCosts: ...
def top_functions(costs: pd.DataFrame, n: int = ..., event: Optional[str] = ...) -> pd.DataFrame: ...
def hosts_above_median(per_host: pd.DataFrame, symbol: str,
                       event: Optional[str] = ...) -> pd.DataFrame: ...
def merge(paths: Sequence[_Path], hosts: Optional[Sequence[str]] = ..., client: Any = ...,
          format: str = ..., ship: bool = ..., **open_kw: Any) -> MergedProfile: ...
