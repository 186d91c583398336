"""Expected output of case subgroup_reduce_48 (see subgroup_reduce_common.py)."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clcorpus import write_outputs
from subgroup_reduce_common import model

write_outputs(model("subgroup_reduce_48"))
