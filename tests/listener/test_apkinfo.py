"""Reading APK manifests (pytest_mobileagent.apkinfo) and the phone's refusals."""

from __future__ import annotations

import io
import zipfile

import pytest

from listener_apks import build_apk
from pytest_mobileagent.apkinfo import ApkError, read_apk
from pytest_mobileagent.listener import APK_PATH, PACKAGE, SERVICE
from pytest_mobileagent.virtual_phone import VirtualPhone
from pytest_mobileagent.virtual_phone.framework.packages import InstallError


def test_the_listener_apk():
    info = read_apk(APK_PATH.read_bytes())
    assert info.package == PACKAGE
    assert (info.min_sdk, info.target_sdk) == (21, 28)
    assert SERVICE.split("/")[1] in info.services
    assert len(info.signer_sha256) == 64


def _zip(**files: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("data", [b"", b"garbage", _zip(foo=b"bar"), _zip(**{"AndroidManifest.xml": b"\x00" * 40})],
                         ids=["empty", "garbage", "no-manifest", "bad-manifest"])
def test_what_is_not_an_apk(data):
    with pytest.raises(ApkError) as info:
        read_apk(data)
    assert info.value.reason == "not_apk"


def test_an_unsigned_apk_is_refused_by_the_phone(tmp_path):
    unsigned = build_apk(tmp_path / "unsigned.apk", "org.example.unsigned", 1, "1.0", sign=False)
    assert read_apk(unsigned.read_bytes()).signer_sha256 == ""
    phone = VirtualPhone()
    with pytest.raises(InstallError) as info:
        phone.packages.install(unsigned.read_bytes())
    assert info.value.code == "INSTALL_PARSE_FAILED_NO_CERTIFICATES"


def test_another_signer_cannot_update(tmp_path):
    phone = VirtualPhone()
    phone.packages.install(APK_PATH.read_bytes())
    # Same package, same key file, but a fresh key: generated here with keytool.
    import shutil
    import subprocess

    keytool = shutil.which("keytool")
    if keytool is None:
        pytest.skip("keytool (JDK) not installed")
    store = tmp_path / "other.keystore"
    subprocess.run([keytool, "-genkeypair", "-keystore", str(store), "-storepass", "android", "-keypass", "android",
                    "-alias", "other", "-keyalg", "RSA", "-keysize", "2048", "-validity", "1",
                    "-dname", "CN=other"], check=True, capture_output=True, timeout=120)
    unsigned = build_apk(tmp_path / "u.apk", PACKAGE, 99, "9.9", sign=False)
    signed = tmp_path / "other.apk"
    subprocess.run([shutil.which("apksigner"), "sign", "--ks", str(store), "--ks-pass", "pass:android",
                    "--key-pass", "pass:android", "--ks-key-alias", "other", "--out", str(signed), str(unsigned)],
                   check=True, capture_output=True, timeout=120)
    with pytest.raises(InstallError) as info:
        phone.packages.install(signed.read_bytes())
    assert info.value.code == "INSTALL_FAILED_UPDATE_INCOMPATIBLE"
