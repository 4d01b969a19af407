"""rooflab_record: time an attention callable and write a rooflab record.

The notebook form::

    import torch, rooflab_record
    q = torch.randn(1, 8, 4096, 64, device="cuda", dtype=torch.float16)
    k = v = torch.randn(1, 8, 4096, 64, device="cuda", dtype=torch.float16)
    record = rooflab_record.time_attention(
        torch.nn.functional.scaled_dot_product_attention, q, k, v,
        causal=False, kernel="torch-sdpa", version=torch.__version__)
    rooflab_record.write(record, "sdpa.json")

The command form: ``python -m rooflab_record --help`` (torch SDPA or an eager softmax(QK^T)V on
given shapes, dtype and device).

The problem is read from the tensors' shapes and dtypes; FLOPs and modelled bytes come from
``rooflab eval --json`` and the record is checked by ``rooflab validate --json`` (the rooflab
binary: ``rooflab=``, else $ROOFLAB, else PATH). Standard library only, torch when present.
"""
__version__ = "0.1.0"

from .problem import ProblemError, describe, infer_problem  # noqa: E402
from .record import (RecordInvalid, make_record, reference_errors, time_attention,  # noqa: E402
                     validate, write)
from .rooflab_cli import RooflabError, find_rooflab  # noqa: E402
from .timing import CudaEvents, TimingError, WallClock, summarize  # noqa: E402

__all__ = ["time_attention", "write", "validate", "make_record", "infer_problem", "describe",
           "summarize", "reference_errors", "WallClock", "CudaEvents", "find_rooflab",
           "ProblemError", "RecordInvalid", "RooflabError", "TimingError", "__version__"]
