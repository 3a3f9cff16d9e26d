"""Character readers: the ONNX CNN (default) and Tesseract (for comparison), behind one interface.

A reader maps normalised cells (N x 32 x 32, see scanner.glyph) to calibrated class probabilities.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from scanner.calibration import softmax
from scanner.errors import ModelError

MODEL_DIR = Path(__file__).parent / "models"
DEFAULT_MODEL = MODEL_DIR / "reader.onnx"
DEFAULT_DIGITS = MODEL_DIR / "digits.onnx"


@dataclass
class ReaderMeta:
    """Sidecar JSON of a model: what it reads, how to calibrate it, and how it was made."""

    classes: str
    input_size: int
    temperature: float
    threshold: float
    target_error: float
    recipe: dict = field(default_factory=dict)
    metrics: dict = field(default_factory=dict)
    digits: str | None = None  # a digit reader beside this model (its file name) for the digit-only boxes

    @classmethod
    def load(cls, path: Path) -> "ReaderMeta":
        try:
            data = json.loads(path.read_text())
            return cls(**data)
        except (OSError, ValueError, TypeError) as exc:
            raise ModelError(f"{path}: cannot load reader metadata ({exc})") from exc

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2, sort_keys=True) + "\n")


class Reader(Protocol):
    classes: str
    threshold: float

    def probabilities(self, cells: np.ndarray) -> np.ndarray:
        """Calibrated probabilities, shape (N, len(classes))."""


def meta_path(model: Path) -> Path:
    return model.with_suffix(".json")


def onnx_session(model: Path, threads: int = 1):
    """An onnxruntime session on the CPU with `threads` intra-op threads (the scanner batches a slip)."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    try:
        return ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"{model}: cannot load ONNX model ({exc})") from exc


class OnnxReader:
    """The small CNN through onnxruntime, one or two threads (the scanner batches a whole slip)."""

    def __init__(self, model: Path = DEFAULT_MODEL, threads: int = 1, with_digits: bool = True) -> None:
        self.meta = ReaderMeta.load(meta_path(model))
        self.session = onnx_session(model, threads)
        self.classes = self.meta.classes
        self.threshold = self.meta.threshold
        self._input = self.session.get_inputs()[0].name
        named = self.meta.digits if with_digits else None  # calibrating the character reader needs none
        self.digits = OnnxReader(model.parent / named, threads) if named else None

    def logits(self, cells: np.ndarray) -> np.ndarray:
        if len(cells) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        x = cells.astype(np.float32)[:, None, :, :]
        return self.session.run(None, {self._input: x})[0]

    def probabilities(self, cells: np.ndarray) -> np.ndarray:
        return softmax(self.logits(cells), self.meta.temperature)


def read_digit_boxes(reader: Reader, cells: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """`probs` of boxes that may hold a digit (the table's, round's and score's, and the position's),
    their digits' share split as the reader's digit reader reads the boxes (`scanner.train.digits`);
    as they were without one.

    The share the character reader gives the letters stays: a box that looks like no digit keeps
    the doubt it raises, and a position's column letter stays the character reader's. Within the
    digits the digit reader, taught on digits alone, is the better judge: on real handwritten digits
    of writers it never saw it is wrong about a third less often.
    """
    digits = getattr(reader, "digits", None)
    if digits is None or len(cells) == 0:
        return probs
    first = reader.classes.index("0")
    out = np.array(probs, dtype=np.float64)
    share = out[:, first:first + 10].sum(axis=1, keepdims=True)
    out[:, first:first + 10] = share * digits.probabilities(cells)
    return out.astype(probs.dtype)


class TesseractReader:
    """Tesseract one cell at a time (page segmentation mode 10), kept to re-run the comparison.

    Tesseract gives no distribution, so its word confidence becomes the argmax probability and the
    remainder is spread evenly: good enough to rank, not calibrated.
    """

    classes = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    threshold = 0.9

    def __init__(self) -> None:
        try:
            import pytesseract

            pytesseract.get_tesseract_version()
        except Exception as exc:
            raise ModelError(f"tesseract: not available ({exc}); install the tesseract-ocr package") from exc
        self._tess = pytesseract

    def probabilities(self, cells: np.ndarray) -> np.ndarray:
        from PIL import Image

        out = np.full((len(cells), len(self.classes)), 1e-3, np.float32)
        cfg = f"--psm 10 -c tessedit_char_whitelist={self.classes}"
        for i, cell in enumerate(cells):
            big = np.pad(255 - (cell * 255).astype(np.uint8), 16, constant_values=255)
            img = Image.fromarray(big).resize((big.shape[1] * 2, big.shape[0] * 2))
            data = self._tess.image_to_data(img, config=cfg, output_type=self._tess.Output.DICT)
            best, conf = "", 0.0
            for text, c in zip(data["text"], data["conf"]):
                text = text.strip().upper()
                if text and float(c) > conf:
                    best, conf = text[0], float(c)
            if best in self.classes:
                p = max(min(conf / 100.0, 0.999), 1.0 / len(self.classes))
                out[i, :] = (1 - p) / (len(self.classes) - 1)
                out[i, self.classes.index(best)] = p
            else:
                out[i, :] = 1.0 / len(self.classes)
        return out


def make_reader(name: str, model: Path | None = None, threads: int = 1) -> Reader:
    """Reader by name: 'cnn' (default) or 'tesseract'."""
    if name == "cnn":
        return OnnxReader(model or DEFAULT_MODEL, threads)
    if name == "tesseract":
        return TesseractReader()
    raise ModelError(f"unknown reader {name!r}; choose 'cnn' or 'tesseract'")
