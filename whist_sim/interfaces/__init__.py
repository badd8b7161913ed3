"""The ways in: the command line (``cli``), the web page (``web``), the OpenSpiel game
(``openspiel``) and the manual shipped with the package (``manual``)."""
