"""Building the package bundles libpagelab.so.1 and the pagelab binary:
`make lib build/pagelab` in the source tree (this folder's parent), then
both copied into pagelab/_bundled/, where the package looks first
(after $PAGELAB_LIB and $PAGELAB).  `make python` runs
`pip install --no-build-isolation ./python` (docs/python.md)."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BuildWithLibrary(build_py):
    def run(self):
        build = os.environ.get("PAGELAB_BUILD", "build")
        subprocess.check_call(["make", "-C", TREE, "BUILD=" + build,
                               "lib", build + "/pagelab"])
        super().run()
        dest = os.path.join(self.build_lib, "pagelab", "_bundled")
        os.makedirs(dest, exist_ok=True)
        for name in ("libpagelab.so.1", "pagelab"):
            shutil.copy2(os.path.join(TREE, build, name), dest)


setup(cmdclass={"build_py": BuildWithLibrary})
