"""The compiled entry points: the loop and the searches reached by address (``deal``), the batch
and trace kernels (``batch``), one seat's decision (``decide``), the advisor's and bid chart's
kernels (``advise``) and the tournament's (``tournament``)."""
