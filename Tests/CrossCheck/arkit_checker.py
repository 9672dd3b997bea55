"""OpenUSD's legacy ARKit compliance checker (`UsdUtils.ComplianceChecker(arkit=True)`, what
`usdchecker --arkit` runs), which usd-core 26 no longer ships: run from usd-core 24.11 in its own
virtual environment under .build/reference, installed there when missing (Scripts/setup-reference-tools
does the same)."""
import json
import subprocess
import sys

from conftest import ROOT

VENV = ROOT / ".build" / "reference" / "usd-core-24"
PYTHON = VENV / "bin" / "python"

# ShaderPropertyTypeConformanceChecker asks Sdr for UsdPreviewSurface's definition, and the pip wheel
# of usd-core 24.11 lacks the usdHydra shaderDefs.usda it needs (it raises "Could not find shader
# resource"), so that one rule cannot run here; every ARKit rule does.
SKIPPED = "ShaderPropertyTypeConformanceChecker"

SCRIPT = f"""
import json, sys
from pxr import UsdUtils
checker = UsdUtils.ComplianceChecker(arkit=True)
checker._rules = [r for r in checker._rules if type(r).__name__ != {SKIPPED!r}]
checker.CheckCompliance(sys.argv[1])
print(json.dumps({{"errors": list(checker.GetErrors()), "failed": list(checker.GetFailedChecks()),
                  "warnings": list(checker.GetWarnings()), "rules": [type(r).__name__ for r in checker._rules]}}))
"""


def ensure():
    ready = PYTHON.exists() and subprocess.run([str(PYTHON), "-c", "from pxr import UsdUtils; UsdUtils.ComplianceChecker"],
                                               capture_output=True).returncode == 0
    if not ready:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "usd-core==24.11"], check=True)


def check(path):
    """{"errors": [...], "failed": [...], "warnings": [...], "rules": [...]} for one file."""
    ensure()
    result = subprocess.run([str(PYTHON), "-c", SCRIPT, str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
