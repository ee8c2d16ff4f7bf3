"""Regenerates vectors/rules/*.json: python3 vectors/rules/gen/gen_all.py"""
import glob, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casino_gen import OUT
for f in glob.glob(os.path.join(OUT, '*.json')):
    os.remove(f)
import casino_cases, double_cases  # noqa: E402,F401
from casino_gen import written  # noqa: E402
print(len(written), 'vectors written to', OUT)
