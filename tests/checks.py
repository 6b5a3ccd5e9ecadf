"""The tally of a check script: one `ok`/`FAIL` line a check (a failure with what was seen),
then a summary line and the exit status."""


class Checks:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def __call__(self, what, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            self.failures.append(what)
            if detail:
                print("  " + str(detail)[:3000].replace("\n", "\n  "))
        return ok

    def status(self):
        if self.failures:
            print(f"{self.name}: {len(self.failures)} failed")
            return 1
        print(f"{self.name}: all passed")
        return 0
