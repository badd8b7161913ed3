"""Datasets and execution: simulation runs cut into chunks on threads or a Dask cluster.

* :mod:`.simulate` - ``simulate()``: a run of the compiled engine, chunk by chunk, resumable;
* :mod:`.dataset` - the Parquet dataset of a run, its manifest, ``load()``;
* :mod:`.executors` - local threads and Dask executors;
* :mod:`.dd_columns` - double-dummy columns of a run.
"""
