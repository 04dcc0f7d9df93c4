"""One module per tool of the peer benchmark; see tools/base.py for the contract.

TOOLS maps a tool's name to its module name and the interpreter that runs it:
Griffin's package lives in .venv (the build's venv), the peers in .venv-bench
(bench/requirements.txt), so their pins never meet.
"""
TOOLS = {
    "griffin": ("griffin_py", ".venv"),
    "duckdb": ("duckdb_sql", ".venv-bench"),
    "polars": ("polars_hand", ".venv-bench"),
    "pandas": ("pandas_hand", ".venv-bench"),
    "pandera-polars": ("pandera_polars", ".venv-bench"),
    "pandera-pandas": ("pandera_pandas", ".venv-bench"),
    "soda-duckdb": ("soda", ".venv-bench"),
    "pydeequ-spark": ("deequ", ".venv-bench"),
    "great-expectations": ("gx", ".venv-bench"),
}
