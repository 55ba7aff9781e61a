"""Array-API inputs for the drop-in functions (private).

scikit-learn 1.9 accepts arrays of any library that follows the array API standard
(``array_api_strict``, PyTorch, CuPy …) and returns array results in the namespace
and on the device of the predictions. The drop-in does the same by one wrapper around
each function: array arguments that are not NumPy arrays are brought to NumPy —
through DLPack without a copy where the library allows it (CPU memory), else through
a copy to the host — the function runs on NumPy, and each array in the result goes
back to the namespace and device of ``y_pred`` / ``y_score`` / ``y_proba`` (else of
the first array-API argument). Scalars stay Python floats, strings and dicts as they
are. NumPy inputs pass straight through (one ``isinstance`` per argument).

The computation itself runs on NumPy on the host: for GPU arrays this is a transfer,
not an in-device computation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["array_api_aware", "is_array_api", "to_numpy"]

#: the arguments whose namespace and device the results follow, in order of preference
_REFERENCE = ("y_pred", "y_score", "y_proba", "y_prob", "y2")


def is_array_api(x: Any) -> bool:
    """Whether ``x`` is a non-NumPy array of an array-API library."""
    if isinstance(x, np.ndarray | np.generic | list | tuple | int | float | str | None):
        return False
    mod = type(x).__module__
    return hasattr(x, "__array_namespace__") or mod.startswith(("torch", "cupy", "jax"))


def to_numpy(x: Any) -> np.ndarray[Any, Any]:
    """A NumPy view (DLPack, CPU memory) or host copy of an array-API array."""
    try:
        return np.from_dlpack(x)
    except (BufferError, RuntimeError, TypeError, ValueError, AttributeError):
        pass
    try:  # ask the producer for host memory (NumPy 2's from_dlpack device=)
        return np.from_dlpack(x, device="cpu")
    except (BufferError, RuntimeError, TypeError, ValueError, AttributeError):
        pass
    if hasattr(x, "get"):  # CuPy
        return np.asarray(x.get())
    if hasattr(x, "cpu"):  # PyTorch on an accelerator
        return np.asarray(x.detach().cpu())
    return np.asarray(x)


def _namespace(x: Any) -> Any:
    if hasattr(x, "__array_namespace__"):
        return x.__array_namespace__()
    if type(x).__module__.startswith("torch"):  # tensors have no __array_namespace__
        import importlib

        return importlib.import_module("torch")
    raise TypeError(f"no array namespace for {type(x).__name__}")


def _back(out: Any, xp: Any, device: Any) -> Any:
    """Each array of ``out`` in namespace ``xp`` on ``device`` (tuples element-wise)."""
    if isinstance(out, tuple):
        return tuple(_back(o, xp, device) for o in out)
    if isinstance(out, list):
        return [_back(o, xp, device) for o in out]
    if isinstance(out, np.ndarray):
        arr = np.ascontiguousarray(out)
        if arr.dtype == object:
            return out
        try:
            return xp.asarray(arr, device=device)
        except (TypeError, ValueError):  # a library that refuses NumPy input on device
            return xp.asarray(arr.tolist(), device=device)
    return out


def array_api_aware(fn: F) -> F:
    """Wrap a drop-in function so that it takes array-API arrays and gives its array
    results back in the namespace and on the device of the predictions."""
    import inspect

    params = list(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        found = [i for i, a in enumerate(args) if is_array_api(a)]
        found_kw = [k for k, v in kwargs.items() if is_array_api(v)]
        if not found and not found_kw:
            return fn(*args, **kwargs)
        named = {params[i]: args[i] for i in found if i < len(params)}
        named.update({k: kwargs[k] for k in found_kw})
        ref = next((named[k] for k in _REFERENCE if k in named), None)
        if ref is None:
            ref = args[found[0]] if found else kwargs[found_kw[0]]
        xp, device = _namespace(ref), getattr(ref, "device", None)
        args = tuple(to_numpy(a) if i in found else a for i, a in enumerate(args))
        kwargs = {k: (to_numpy(v) if k in found_kw else v) for k, v in kwargs.items()}
        return _back(fn(*args, **kwargs), xp, device)

    return wrapper  # type: ignore[return-value]
