"""Bad input over raw sockets: the phone drops the offender and keeps serving."""

from __future__ import annotations

import socket
import struct

import pytest
from rawadb import CLSE, CNXN, OKAY, OPEN, WRTE, RawHost, packet


def _still_serves(port: int) -> None:
    host = RawHost(port)
    try:
        host.connect()
        assert host.run("shell:echo alive") == b"alive\n"
    finally:
        host.close()


def test_handshake_banner_advertises_only_implemented_features(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    banner = host.connect()
    host.close()
    assert banner.startswith("device::")
    features = set(banner.split("features=")[1].rstrip("\0").split(","))
    assert {"shell_v2", "stat_v2"} <= features
    assert "delayed_ack" not in features and "sendrecv_v2" not in features


@pytest.mark.parametrize("version, summed", [(0x01000001, False), (0x01000000, True)])
def test_payload_checksums_follow_the_hosts_protocol_version(unregistered_phone, version, summed):
    # adbd stops computing checksums once both sides speak 0x01000001; an older
    # host still checks them, so it must get the real byte sums.
    host = RawHost(unregistered_phone.port)
    host.connect(version)
    assert host.run("shell:echo checksum me") == b"checksum me\n"
    host.close()
    with_data = [(check, data) for check, data in host.checksums if data]
    assert len(with_data) >= 2  # the banner and the output at least
    for check, data in with_data:
        assert check == (sum(data) & 0xFFFFFFFF if summed else 0)


@pytest.mark.parametrize("garbage", [
    b"\x00" * 24,                                              # unknown command
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",                      # not adb at all
    struct.pack("<6I", CNXN, 1, 1, 0, 0, 0),                   # bad magic
    struct.pack("<6I", WRTE, 1, 1, 0xFFFFFFFF, 0, WRTE ^ 0xFFFFFFFF),  # absurd length
])
def test_malformed_packets_close_only_that_connection(unregistered_phone, garbage):
    bystander = RawHost(unregistered_phone.port)
    bystander.connect()
    bad = socket.create_connection(("127.0.0.1", unregistered_phone.port), timeout=5)
    bad.sendall(garbage)
    assert bad.recv(100) == b""  # the phone hung up on the bad host
    bad.close()
    assert bystander.run("shell:echo still here") == b"still here\n"
    bystander.close()
    _still_serves(unregistered_phone.port)


def test_unknown_service_is_refused_with_clse(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    host.connect()
    for service in ("bogus:", "tcp:1", "localabstract:x", "jdwp:1", "\xff\xfe"):
        _local, remote = host.open(service)
        assert remote is None, service
    assert host.run("shell:echo ok") == b"ok\n"  # same connection still works
    host.close()


def test_stream_messages_for_unknown_ids_are_ignored(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    host.connect()
    host.send(WRTE, 5, 9999, b"data for nobody")
    host.send(CLSE, 5, 9999)
    host.send(OKAY, 5, 9999)
    assert host.run("shell:echo ok") == b"ok\n"
    host.close()


def test_disconnect_mid_transfer_leaves_the_phone_serving(unregistered_phone):
    port = unregistered_phone.port
    # 1) a big screencap the host never acknowledges, then vanishes
    host = RawHost(port)
    host.connect()
    host.open("exec:screencap")
    host.recv()  # first chunk arrives; we never OKAY it
    host.close()
    # 2) a sync SEND cut off in the middle of a DATA chunk
    host = RawHost(port)
    host.connect()
    local, remote = host.open("sync:")
    path = b"/sdcard/partial.bin,33188"
    host.send(WRTE, local, remote, b"SEND" + struct.pack("<I", len(path)) + path)
    host.recv()  # OKAY for that write
    host.send(WRTE, local, remote, b"DATA" + struct.pack("<I", 65536) + b"x" * 1000)
    host.close()
    _still_serves(port)
    assert not unregistered_phone.phone.fs.exists("/sdcard/partial.bin")


def test_oversized_sync_requests_fail_cleanly(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    host.connect()
    local, remote = host.open("sync:")
    host.send(WRTE, local, remote, b"STAT" + struct.pack("<I", 10_000_000))
    data = host.read_all(local, remote)
    assert data.startswith(b"FAIL")
    local, remote = host.open("sync:")
    host.send(WRTE, local, remote, b"ABCD" + struct.pack("<I", 1) + b"/")
    assert host.read_all(local, remote).startswith(b"FAIL")
    host.close()
    _still_serves(unregistered_phone.port)


def test_shell_v2_framing(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    host.connect()
    data = host.run("shell,v2,TERM=xterm,raw:echo out; echo err >&2; exit 4")
    host.close()
    packets = []
    while data:
        kind, length = struct.unpack("<BI", data[:5])
        packets.append((kind, data[5:5 + length]))
        data = data[5 + length:]
    assert packets == [(1, b"out\n"), (2, b"err\n"), (3, b"\x04")]


def test_writes_are_chunked_to_the_hosts_maxdata(unregistered_phone):
    host = RawHost(unregistered_phone.port)
    host.connect()  # announces maxdata 256 KiB
    local, remote = host.open("exec:screencap")
    total = 0
    while True:
        command, _a, _b, data = host.recv()
        if command == CLSE:
            break
        assert command == WRTE and len(data) <= 256 * 1024
        total += len(data)
        host.send(OKAY, local, remote)
    host.close()
    assert total == 16 + 1080 * 2340 * 4


def test_server_rejects_unknown_service_through_adb(phone, adb_server_port):
    """Through the real adb server: an unknown service yields FAIL, and the phone lives on."""
    with socket.create_connection(("127.0.0.1", adb_server_port), timeout=5) as sock:
        for request in (f"host:transport:{phone.serial}", "nosuchservice:abc"):
            sock.sendall(f"{len(request):04x}".encode() + request.encode())
            status = sock.recv(4)
            if request.startswith("host:"):
                assert status == b"OKAY"
        assert status == b"FAIL"
    import adbutils

    assert adbutils.AdbClient(port=adb_server_port).device(phone.serial).shell("echo ok") == "ok"


def test_many_connections_and_streams(unregistered_phone):
    hosts = [RawHost(unregistered_phone.port) for _ in range(5)]
    for host in hosts:
        host.connect()
    opened = [(host, *host.open(f"shell:echo {i}")) for i, host in enumerate(hosts)]
    for i, (host, local, remote) in enumerate(opened):
        assert host.read_all(local, remote) == f"{i}\n".encode()
        host.close()
