"""Executes a notebook with nbclient, as Jupyter would, and fails on the first cell error.

Usage: HAMMER_DATASET=DIR python run_notebook.py NOTEBOOK
The kernel starts in the notebook's own directory; the dataset path comes from the
environment. The executed notebook is not written back, so the checked-in file stays clean.
"""

import os
import sys

import nbformat
from nbclient import NotebookClient

# The kernel inherits the environment; a non-interactive backend would swallow the figures
# the test counts.
os.environ.pop("MPLBACKEND", None)
path = os.path.abspath(sys.argv[1])
nb = nbformat.read(path, as_version=4)
client = NotebookClient(nb, timeout=600, kernel_name="python3",
                        resources={"metadata": {"path": os.path.dirname(path)}})
client.execute()
errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
          if o.get("output_type") == "error"]
if errors:
    sys.exit(f"{len(errors)} cell(s) raised: {errors[0].get('ename')}: {errors[0].get('evalue')}")
images = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
             if "image/png" in o.get("data", {}))
print(f"executed {sum(1 for c in nb.cells if c.cell_type == 'code')} code cells, {images} images")
