"""Pictures of files (thumbnails) that screenshots draw, decoded once and cached.

An app shows a file's picture with an ImageView whose icon is the name
`icon_for_file(fs, path)` returns ("bitmap:<digest>").  The name depends only
on the file's bytes, so display lists stay comparable between frames, and
the renderer (render.py) pastes `fitted(name, box, ...)`: the picture decoded
once (Pillow for images, PyAV's first frame for videos), centre-cropped to the
box, darkened under dialog scrims, and cached per size.  A file that cannot be
decoded gets no picture and the renderer draws the placeholder icon instead.
"""

from __future__ import annotations

import functools
import hashlib
import io
import threading
from collections import OrderedDict

__all__ = ["PREFIX", "fitted", "icon_for_file"]

PREFIX = "bitmap:"
_MAX_FILES = 256  # distinct pictures kept (each a few KB of file bytes)
_lock = threading.Lock()
_data: OrderedDict[str, bytes] = OrderedDict()        # name -> file bytes
_names: OrderedDict[tuple, str] = OrderedDict()       # (fs id, path, mtime, size) -> name


def icon_for_file(fs, path: str) -> str:
    """The icon name that draws the picture of `path` ("" if it cannot be read)."""
    try:
        stat = fs.stat(path)
    except OSError:
        return ""
    key = (id(fs), path, stat.mtime, stat.size)
    with _lock:
        name = _names.get(key)
        if name is not None:
            _names.move_to_end(key)
            return name
    try:
        data = fs.read_file(path)
    except OSError:
        return ""
    name = PREFIX + hashlib.sha1(data).hexdigest()[:20]
    with _lock:
        _names[key] = name
        _data[name] = data
        for table in (_names, _data):
            while len(table) > _MAX_FILES:
                table.popitem(last=False)
    return name


@functools.lru_cache(maxsize=32)
def _decoded(name: str):
    """The full picture of a registered file, or None when it is not a picture."""
    with _lock:
        data = _data.get(name)
    if data is None:
        return None
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.convert("RGB")
    except Exception:  # noqa: BLE001 - not an image Pillow reads: try it as a video
        pass
    try:
        import av

        with av.open(io.BytesIO(data)) as container:
            for frame in container.decode(video=0):
                return frame.to_image().convert("RGB")
    except Exception:  # noqa: BLE001 - neither: no picture
        return None
    return None


@functools.lru_cache(maxsize=512)
def fitted(name: str, size: tuple[int, int], dim: float = 1.0):
    """The picture centre-cropped to `size` (width, height), its colours times `dim`; None if none."""
    picture = _decoded(name)
    width, height = size
    if picture is None or width <= 0 or height <= 0:
        return None
    from PIL import ImageOps

    out = ImageOps.fit(picture, (width, height))
    if dim < 1.0:
        out = out.point(lambda v: int(v * dim))
    return out
