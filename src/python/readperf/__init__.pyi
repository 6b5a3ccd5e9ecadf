# Type hints of the readperf package (issue #17); the docstrings are in __init__.py and
# docs/python.md.
import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np
import pandas as pd

_Path = Union[str, os.PathLike]

RECORD_TYPES: Dict[str, int]
FLAG_HAS_SYMBOL: int
FLAG_INLINED: int
FLAG_UNWOUND: int
FLAG_USER_DSO: int

class ReadError(Exception):
    path: str
    offset: Optional[int]
    what: str
    recording: Optional[Recording]
    def __init__(self, message: str, path: str, offset: Optional[int], what: str,
                 recording: Optional[Recording]) -> None: ...

class Record:
    type: str
    type_id: int
    event: Optional[str]
    event_index: int
    time: int
    pid: int
    tid: int
    cpu: int
    ip: int
    addr: int
    period: int
    phys_addr: int
    weight: int
    transaction: int
    cpumode: int
    misc: int
    file_offset: int
    comm: Optional[str]
    dso: Optional[str]
    symbol: Optional[str]
    symoff: Optional[int]
    dso_map_start: Optional[int]
    dso_map_end: Optional[int]
    callchain: List[Dict[str, Any]]
    raw: bytes
    fields: Dict[str, Any]
    sample: Optional[Dict[str, int]]
    def as_dict(self) -> Dict[str, Any]: ...

def open(path: _Path, buildid_dir: Optional[_Path] = ..., symfs: Optional[_Path] = ...,
         kallsyms: Optional[_Path] = ..., partial: bool = ..., lines: bool = ...,
         srclines: bool = ..., max_stack: int = ..., time: Optional[str] = ...,
         cpu: Optional[str] = ..., comms: Union[None, str, Sequence[str]] = ...,
         pids: Union[None, str, Sequence[int]] = ..., tids: Union[None, str, Sequence[int]] = ...,
         dsos: Union[None, str, Sequence[str]] = ...,
         symbols: Union[None, str, Sequence[str]] = ...,
         vmlinux: Optional[_Path] = ...) -> Recording: ...

def records(path: _Path, buildid_dir: Optional[_Path] = ..., symfs: Optional[_Path] = ...,
            kallsyms: Optional[_Path] = ..., partial: bool = ..., max_stack: int = ...,
            types: Union[None, str, Sequence[str]] = ...,
            events: Union[None, str, Sequence[str]] = ...,
            callchains: bool = ..., vmlinux: Optional[_Path] = ...) -> Iterator[Record]: ...

class Recording:
    path: str
    header: Dict[str, Any]
    events: List[Dict[str, Any]]
    errors: List[Dict[str, Any]]
    def __len__(self) -> int: ...
    @property
    def strings(self) -> np.ndarray: ...
    def bytes_per_sample(self) -> int: ...
    def sample_columns(self) -> Dict[str, np.ndarray]: ...
    def samples(self) -> pd.DataFrame: ...
    def frames(self) -> pd.DataFrame: ...
    def stacks(self) -> pd.DataFrame: ...
    def stack(self, stack_id: int) -> List[int]: ...
    def report(self, sort: Union[str, Sequence[str]] = ...,
               children: bool = ...) -> pd.DataFrame: ...
    def collapsed(self, pid: bool = ..., tid: bool = ..., kernel: bool = ..., jit: bool = ...,
                  addrs: bool = ..., event: Optional[str] = ..., count: bool = ...) -> str: ...
    def pprof(self, gzip: bool = ...) -> bytes: ...
    def to_pprof(self, path: _Path, gzip: bool = ...) -> None: ...
    def to_sqlite(self, path: _Path, callchains: bool = ...) -> None: ...
    def function_costs(self) -> pd.DataFrame: ...
    def tracepoint_fields(self, event: str) -> pd.DataFrame: ...
    def records(self, types: Union[None, str, Sequence[str]] = ...,
                events: Union[None, str, Sequence[str]] = ...,
                callchains: bool = ...) -> Iterator[Record]: ...

def merge_pprof(profiles: Sequence[bytes], gzip: bool = ...) -> bytes: ...

def open_bytes(data: Union[bytes, bytearray, memoryview], name: str = ...,
               **open_kw: Any) -> Recording: ...
