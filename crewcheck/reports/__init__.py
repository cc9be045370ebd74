"""What crewcheck reports: results, errors, analyses and reviews as JSON objects and as
text, written by :mod:`.results` alone for the command line, the web page and
``decide --batch``. It sits above the analysis, which it renders; the deal formats
(:mod:`crewcheck.formats`) sit below the solvers, which never print."""
