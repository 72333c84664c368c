"""Build of hefen's optional compiled core (``hefen._core``, plain C).

Everything else about the package is declared in pyproject.toml.  The
extension is optional: when it cannot be built (no C compiler, no Python
headers) the install goes on with a warning and hefen runs on its pure-Python
core.  ``HEFEN_REQUIRE_CORE=1`` turns a failed build into an error (wheel
builds set it, so that no wheel ships without the core); ``HEFEN_NO_CORE=1``
skips the extension altogether.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# the errors a failed compile or link raises (setuptools' bundled distutils)
try:
    from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

    BUILD_ERRORS: tuple[type[BaseException], ...] = (
        CCompilerError,
        CompileError,
        ExecError,
        LinkError,
        PlatformError,
        OSError,
    )
except ImportError:  # setuptools < 59
    from distutils.errors import (
        CCompilerError,
        CompileError,
        DistutilsExecError,
        DistutilsPlatformError,
        LinkError,
    )

    BUILD_ERRORS = (
        CCompilerError,
        CompileError,
        DistutilsExecError,
        DistutilsPlatformError,
        LinkError,
        OSError,
    )


def _required() -> bool:
    return os.environ.get("HEFEN_REQUIRE_CORE") == "1"


def _warn(err: BaseException) -> None:
    sys.stderr.write(
        "\n*** hefen: the compiled core (hefen._core) could not be built "
        f"({type(err).__name__}: {err}).\n"
        "*** hefen is installed with its pure-Python core: every answer is the same, "
        "only slower.\n"
        "*** Install a C compiler and the Python headers and reinstall to build it.\n\n"
    )


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the core cannot be built."""

    def run(self) -> None:
        try:
            super().run()
        except BUILD_ERRORS as err:
            if _required():
                raise
            _warn(err)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as err:
            if _required():
                raise
            _warn(err)


CORE_SOURCE = "hefen/_core.c"
#: #included by hefen/_core.c (the Hong Kong and Taiwanese scorers): a change
#: to it rebuilds the extension, and it is part of the source digest
CORE_INCLUDES = ["hefen/_core_hktw.c"]


def source_hash() -> str:
    """The core's source digest, compiled in: hefen.decompose ignores (with a
    warning) an extension built from another version of hefen/_core.c (or
    of the files it includes)."""
    root = Path(__file__).resolve().parent
    data = b"".join((root / f).read_bytes() for f in [CORE_SOURCE, *CORE_INCLUDES])
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()[:16]


ext_modules = []
if os.environ.get("HEFEN_NO_CORE") != "1":
    ext_modules.append(
        Extension(
            "hefen._core",
            sources=[CORE_SOURCE],
            depends=CORE_INCLUDES,
            define_macros=[("HEFEN_CORE_SOURCE_HASH", f'"{source_hash()}"')],
            optional=not _required(),
        )
    )

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
