# -*- Python -*-
import os

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "HKG"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hkg_obj_root, "test")

config.substitutions.append(("%hkg_src_root", config.hkg_src_root))
config.substitutions.append(("%hkg_obj_root", config.hkg_obj_root))
# Linalg imported from PyTorch modules (utils/frontend/torch_import.py).
config.substitutions.append(
    ("%torch_inputs", os.path.join(config.hkg_src_root, "test", "Inputs", "torch")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.hkg_tools_dir, config.llvm_tools_dir]
tools = ["hkg-opt", "hkg-run", "hkg-compile", "hkg-tune", "hkg-tune-eval"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(("%hkg_lib_dir", os.path.join(config.hkg_obj_root, "lib")))

# NVIDIA codegen tests need CUDA's libdevice; cubins and their stats need
# ptxas. Neither needs a GPU.
if any(os.path.exists(p) for p in [
        "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc",
        "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc"]):
    config.available_features.add("cuda")
ptxas = ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas")
         else lit.util.which("ptxas"))
if ptxas:
    config.available_features.add("ptxas")
    # For tests that read ptxas' own diagnostics (hkg-compile does not print
    # them).
    config.substitutions.append(("%ptxas", ptxas))
