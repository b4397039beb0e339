"""The bytes of a preinstalled package's APK: a ZIP whose AndroidManifest.xml is binary XML.

`pm path` names an APK a client may `adb pull` and read (pyaxmlparser, androguard, aapt): a
preinstalled package's APK is made here, when first read, with the manifest facts
PackageManagerService reports (package, versionCode, versionName, SDK levels).  The manifest is
encoded as Android's binary XML (frameworks/base libs/androidfw/include/androidfw/ResourceTypes.h:
ResChunk_header, ResStringPool_header, ResXMLTree_node / _attrExt / _attribute, Res_value); the
APK holds no code, resources or signature.
"""

from __future__ import annotations

import io
import struct
import zipfile

__all__ = ["build_apk"]

#: android:* attributes' resource ids (frameworks/base core/res/res/values/public.xml)
_ANDROID_NS = "http://schemas.android.com/apk/res/android"
_ATTR_IDS = {"versionCode": 0x0101021B, "versionName": 0x0101021C, "minSdkVersion": 0x0101020C,
             "targetSdkVersion": 0x01010270}
#: ResChunk_header types and Res_value data types (ResourceTypes.h)
_RES_XML_TYPE, _RES_STRING_POOL_TYPE, _RES_XML_RESOURCE_MAP_TYPE = 0x0003, 0x0001, 0x0180
_START_NAMESPACE, _END_NAMESPACE, _START_ELEMENT, _END_ELEMENT = 0x0100, 0x0101, 0x0102, 0x0103
_TYPE_STRING, _TYPE_INT_DEC = 0x03, 0x10
_UTF8_FLAG = 1 << 8
_NONE = 0xFFFFFFFF


def _string_pool(strings: list[str]) -> bytes:
    """A UTF-8 ResStringPool: each string's char and byte lengths (one byte each below 128), its bytes, 0."""
    data, offsets = b"", []
    for text in strings:
        raw = text.encode()
        assert len(text) < 128 and len(raw) < 128, text
        offsets.append(len(data))
        data += bytes([len(text), len(raw)]) + raw + b"\0"
    data += b"\0" * (-len(data) % 4)
    header_size = 28
    strings_start = header_size + 4 * len(strings)
    size = strings_start + len(data)
    return (struct.pack("<HHIIIIII", _RES_STRING_POOL_TYPE, header_size, size, len(strings), 0, _UTF8_FLAG,
                        strings_start, 0) + struct.pack(f"<{len(offsets)}I", *offsets) + data)


def _manifest(package: str, version_code: int, version_name: str, min_sdk: int, target_sdk: int) -> bytes:
    """AndroidManifest.xml as aapt2 writes it: <manifest package versionCode versionName><uses-sdk/></manifest>."""
    # the attribute names with a resource id come first, in the resource map's order
    names = list(_ATTR_IDS)
    strings = names + ["android", _ANDROID_NS, "manifest", "package", "uses-sdk", package, version_name]
    index = {text: i for i, text in enumerate(strings)}
    resource_map = struct.pack("<HHI", _RES_XML_RESOURCE_MAP_TYPE, 8, 8 + 4 * len(names)) + struct.pack(
        f"<{len(names)}I", *(_ATTR_IDS[name] for name in names))

    def attribute(name: str, value: str | int, android: bool = True) -> bytes:
        ns = index[_ANDROID_NS] if android else _NONE
        if isinstance(value, int):
            return struct.pack("<IIIHBBI", ns, index[name], _NONE, 8, 0, _TYPE_INT_DEC, value)
        return struct.pack("<IIIHBBI", ns, index[name], index[value], 8, 0, _TYPE_STRING, index[value])

    def start(name: str, attributes: list[bytes], line: int) -> bytes:
        body = struct.pack("<IIHHHHHH", _NONE, index[name], 20, 20, len(attributes), 0, 0, 0) + b"".join(attributes)
        return struct.pack("<HHIII", _START_ELEMENT, 16, 16 + len(body), line, _NONE) + body

    def end(name: str, line: int) -> bytes:
        return struct.pack("<HHIIIII", _END_ELEMENT, 16, 24, line, _NONE, _NONE, index[name])

    namespace = (index["android"], index[_ANDROID_NS])
    nodes = b"".join([
        struct.pack("<HHIIIII", _START_NAMESPACE, 16, 24, 1, _NONE, *namespace),
        # ResXMLTree_attrExt's attributes are sorted by resource id, the unnamespaced ones last
        start("manifest", [attribute("versionCode", version_code), attribute("versionName", version_name),
                           attribute("package", package, android=False)], 1),
        start("uses-sdk", [attribute("minSdkVersion", min_sdk), attribute("targetSdkVersion", target_sdk)], 2),
        end("uses-sdk", 2),
        end("manifest", 1),
        struct.pack("<HHIIIII", _END_NAMESPACE, 16, 24, 1, _NONE, *namespace),
    ])
    body = _string_pool(strings) + resource_map + nodes
    return struct.pack("<HHI", _RES_XML_TYPE, 8, 8 + len(body)) + body


def build_apk(package: str, version_code: int, version_name: str, *, min_sdk: int = 23,
              target_sdk: int = 34) -> bytes:
    """A code-less, unsigned APK holding the package's binary AndroidManifest.xml (stored, fixed time,
    so the same facts give the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as apk:
        entry = zipfile.ZipInfo("AndroidManifest.xml", date_time=(2008, 1, 1, 0, 0, 0))
        apk.writestr(entry, _manifest(package, version_code, version_name, min_sdk, target_sdk))
    return buffer.getvalue()
