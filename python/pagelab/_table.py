"""Results as pandas DataFrames when pandas is installed, otherwise as
the plain list of dicts (one per row) the DataFrame would be made of."""

try:
    import pandas
except ImportError:          # pandas is optional
    pandas = None


def have_pandas():
    return pandas is not None


def table(rows, columns=None):
    """rows: a list of dicts.  A DataFrame (columns in the given order,
    or the first row's) with pandas, else rows itself."""
    if pandas is None:
        return rows
    return pandas.DataFrame(rows, columns=columns)
