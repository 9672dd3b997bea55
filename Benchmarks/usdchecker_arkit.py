"""What `usdchecker --arkit FILE` runs (usd-core 24.11's legacy ComplianceChecker with the ARKit
rules), over many files in one process, so the benchmark does not charge usd-core a Python start
per file. ShaderPropertyTypeConformanceChecker is left out: the wheel lacks the shader definitions
it needs (Tests/CrossCheck/arkit_checker.py). Exit 1 when any file fails, as usdchecker does."""
import sys

from pxr import UsdUtils

failed = 0
for path in sys.argv[1:]:
    checker = UsdUtils.ComplianceChecker(arkit=True)
    checker._rules = [r for r in checker._rules if type(r).__name__ != "ShaderPropertyTypeConformanceChecker"]
    checker.CheckCompliance(path)
    failed += bool(checker.GetErrors() or checker.GetFailedChecks())
sys.exit(1 if failed else 0)
