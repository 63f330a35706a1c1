#!/usr/bin/env python3
"""make soak: snap-poem serve --jobs 2 under a hostile mix next to honest clients (issue 18).

For SOAK_SECONDS (default 600), on 127.0.0.1 only, each kind of client from loopback
addresses of its own (127.0.x.y all reach the server; they stand for other machines):

  honest       two clients posting a stanza (raw, and as a form with Lenore=Alex), in turn
  health       GET /healthz every 100 ms, timed from connect to the last byte (own process)
  slow headers 12 connections sending a header line a second, reconnecting when cut
  tricklers    64 connections from four addresses (16 each, an address's share), each
               sending one byte of a header a second, never ending it, reconnecting when cut
  part floods  forms of 360 000 one-byte parts (19 MB), one after another
  abandoned    a 12-megapixel photo sent whole, the client gone a second later
  FIND bombs   100 FINDs of 256 CJK letters (the most accepted) on a page; one FIND of 64 KB
  pixel bombs  a few-KB PNG declaring 148.8 megapixels

Pass criteria: every honest request answered (200, or 503/429 with Retry-After), /healthz
p99 under 100 ms with none lost, the server's resident memory never past its budget (read
from its start-up line), the server alive throughout and exiting 0 on SIGTERM. Prints the
figures as Markdown (for SECURITY.md) and exits 1 if a criterion fails.

    Scripts/soak.py [--seconds N] [--binary PATH]
"""

import argparse
import multiprocessing
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "SampleImages"


def png(width, height, rows, depth=8, colour=0):
    """A PNG of `rows` (bytes each, without filter bytes), every row filter 0."""
    compressor = zlib.compressobj(6)
    data = bytearray()
    for row in rows:
        data += compressor.compress(b"\x00" + row)
    data += compressor.flush()

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", bytes(data)) + chunk(b"IEND", b"")


def pixel_bomb():
    """12 200 × 12 200 white, one bit a pixel: a few KB that declare 148.8 megapixels."""
    row = b"\xff" * ((12_200 + 7) // 8)
    return png(12_200, 12_200, (row for _ in range(12_200)), depth=1)


def multipart(fields, files=(), boundary="soak-boundary"):
    body = bytearray()
    for name, value in fields:
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value + b"\r\n"
    for name, filename, kind, content in files:
        body += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {kind}\r\n\r\n"
        ).encode() + content + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", bytes(body)


def connect(port, source, timeout=120):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def read_answer(sock):
    data = bytearray()
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head = bytes(data[:64]).split(b" ")
    return int(head[1]) if len(head) > 1 and head[1].isdigit() else None, bytes(data)


def post(port, source, target, content_type, body, timeout=600):
    """(status or None, answer bytes); None when the connection broke without an answer."""
    try:
        sock = connect(port, source, timeout)
    except OSError:
        return None, b""
    try:
        head = f"POST {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        try:
            sock.sendall(head.encode() + body)
        except OSError:
            pass  # refused from the headers and closed before the body was in: read the answer
        return read_answer(sock)
    except OSError:
        return None, b""
    finally:
        sock.close()


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1

    def snapshot(self):
        with self.lock:
            return dict(self.counts)


def health_probe(port, stop_at, results):
    """Own process, so the driver's threads cannot delay it: (latencies in ms, failures)."""
    latencies, failures = [], 0
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            sock = connect(port, "127.0.2.1", timeout=10)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            status, _ = read_answer(sock)
            sock.close()
            if status != 200:
                failures += 1
        except OSError:
            failures += 1
        latencies.append((time.monotonic() - started) * 1000)
        time.sleep(max(0, 0.1 - (time.monotonic() - started)))
    results.put((latencies, failures))


def memory_sampler(pid, stop_at, results):
    """Own process: the highest VmRSS seen every 100 ms, and VmHWM at the end."""
    highest, peak = 0, 0
    while time.monotonic() < stop_at:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        highest = max(highest, int(fields["VmRSS"].split()[0]) * 1024)
        peak = int(fields["VmHWM"].split()[0]) * 1024
        time.sleep(0.1)
    results.put((highest, peak))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("SOAK_SECONDS", "600")))
    parser.add_argument("--binary", default=None)
    arguments = parser.parse_args()
    binary = arguments.binary
    if binary is None:
        folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True)
        binary = str(Path(folder.stdout.strip()) / "snap-poem")

    stanza = (SAMPLES / "formats/stanza-rgb8.png").read_bytes()
    lenore = (SAMPLES / "Lenore.png").read_bytes()
    photo = (SAMPLES / "photo-phone-size.jpg").read_bytes()
    bomb = pixel_bomb()
    letters = [chr(0x4E00 + i) for i in range(20_000)]
    # The most the limits accept: 100 FINDs of 256 characters, half of them runs of the
    # poem's own words (so that OCR-tolerant matching compares them), half CJK letters.
    words = (SAMPLES / "Lenore.txt").read_text().split()
    finds = [" ".join(words[i : i + 60])[:256] for i in range(50)] + ["".join(letters[i * 256 : (i + 1) * 256]) for i in range(50)]
    find_bomb = multipart([("replace", (find + "=x").encode()) for find in finds], [("image", "lenore.png", "image/png", lenore)])
    oversized_find = multipart([("replace", ("".join(letters) * 4)[:21_844].encode() + b"=x")], [("image", "s.png", "image/png", stanza)])
    part = b'--flood\r\nContent-Disposition: form-data; name="x"\r\n\r\na\r\n'
    flood = part * 360_000 + b"--flood--\r\n"
    honest_form = multipart([("replace", b"Lenore=Alex")], [("image", "stanza.png", "image/png", stanza)])

    log_lines = []
    server = subprocess.Popen(
        [binary, "serve", "--port", "0", "--jobs", "2", "--timeout", "30"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        env=dict(os.environ, OMP_THREAD_LIMIT="1"),
    )

    def read_log():
        for line in server.stderr:
            log_lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    threading.Thread(target=read_log, daemon=True).start()
    port, budget = None, None
    for _ in range(600):
        text = "\n".join(log_lines)
        found = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", text)
        memory = re.search(r"memory budget (\d+) MB", text)
        if found and memory:
            port, budget = int(found.group(1)), int(memory.group(1)) << 20
            break
        if server.poll() is not None:
            break
        time.sleep(0.1)
    if port is None:
        print("snap-poem serve did not start:\n" + "\n".join(log_lines), file=sys.stderr)
        server.kill()
        return 1

    load_before = os.getloadavg()
    started = time.monotonic()
    stop_at = started + arguments.seconds
    results = multiprocessing.Queue()
    prober = multiprocessing.Process(target=health_probe, args=(port, stop_at, results))
    sampler = multiprocessing.Process(target=memory_sampler, args=(server.pid, stop_at + 5, results))
    prober.start()
    sampler.start()

    honest, hostile = Counter(), Counter()
    honest_latencies = []
    problems = []

    def running():
        return time.monotonic() < stop_at

    def honest_client(index):
        source = f"127.0.1.{index + 1}"
        turn = 0
        while running():
            began = time.monotonic()
            if turn % 2 == 0:
                status, answer = post(port, source, "/v1/poems?replace=Lenore%3DAlex", "image/png", stanza)
            else:
                status, answer = post(port, source, "/v1/poems", honest_form[0], honest_form[1])
            turn += 1
            honest_latencies.append(time.monotonic() - began)
            if status == 200 and b"thy love, Alex!" in answer:
                honest.add("200")
            elif status in (429, 503) and b"Retry-After" in answer:
                honest.add(str(status))
                time.sleep(1)
            else:
                honest.add(f"failed ({status})")
                problems.append(f"honest request answered {status}: {answer[:200]!r}")

    def slow_headers(index):
        source = f"127.0.3.{index + 1}"
        while running():
            try:
                sock = connect(port, source, timeout=30)
            except OSError:
                hostile.add("slow headers refused")
                time.sleep(1)
                continue
            try:
                sock.sendall(b"GET /healthz HTTP/1.1\r\n")
                while running():
                    time.sleep(1)
                    sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                hostile.add("slow headers cut")
            finally:
                sock.close()

    def trickle(index):
        # 16 connections from one address, a byte of a header a second each, never ending
        # it; one cut (header deadline, or closed to make room) is opened again.
        source = f"127.0.8.{index + 1}"
        socks = []
        while running():
            while len(socks) < 16 and running():
                try:
                    sock = connect(port, source, timeout=30)
                    sock.sendall(b"GET /healthz HTTP/1.1\r\nX-Trickle: ")
                except OSError:
                    hostile.add("trickle refused")
                    break
                socks.append(sock)
            time.sleep(1)
            for sock in list(socks):
                try:
                    sock.send(b"a")
                except OSError:
                    hostile.add("trickle cut")
                    socks.remove(sock)
                    sock.close()
        for sock in socks:
            sock.close()

    def part_flood(index):
        while running():
            status, _ = post(port, f"127.0.4.{index + 1}", "/v1/poems", "multipart/form-data; boundary=flood", flood)
            hostile.add(f"part flood {status}")
            time.sleep(1)

    def abandoned(index):
        while running():
            try:
                sock = connect(port, f"127.0.5.{index + 1}", timeout=30)
                sock.sendall(
                    f"POST /v1/poems HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: {len(photo)}\r\n\r\n".encode() + photo)
                time.sleep(1)
                sock.close()
                hostile.add("abandoned upload")
            except OSError:
                hostile.add("abandoned upload refused")
            time.sleep(0.5)

    def find_bombs(index):
        turn = 0
        while running():
            body = find_bomb if turn % 2 == 0 else oversized_find
            status, _ = post(port, f"127.0.6.{index + 1}", "/v1/poems?ignoreCase=true", body[0], body[1])
            hostile.add(f"FIND bomb {status}" if turn % 2 == 0 else f"64 KB FIND {status}")
            turn += 1

    def pixel_bombs(index):
        while running():
            status, _ = post(port, f"127.0.7.{index + 1}", "/v1/poems", "image/png", bomb)
            hostile.add(f"pixel bomb {status}")
            time.sleep(0.2)

    threads = [threading.Thread(target=honest_client, args=(i,)) for i in range(2)]
    threads += [threading.Thread(target=slow_headers, args=(i,)) for i in range(12)]
    threads += [threading.Thread(target=trickle, args=(i,)) for i in range(4)]
    threads += [threading.Thread(target=part_flood, args=(i,)) for i in range(2)]
    threads += [threading.Thread(target=abandoned, args=(i,)) for i in range(4)]
    threads += [threading.Thread(target=find_bombs, args=(i,)) for i in range(2)]
    threads += [threading.Thread(target=pixel_bombs, args=(i,)) for i in range(1)]
    for thread in threads:
        thread.daemon = True
        thread.start()
    alive = True
    while running():
        if server.poll() is not None:
            alive = False
            problems.append(f"the server ended during the soak with status {server.returncode}")
            break
        time.sleep(0.5)
    for thread in threads:
        thread.join(timeout=700)
    latencies, failures = results.get(timeout=60)
    highest, peak = results.get(timeout=60)
    prober.join()
    sampler.join()
    load_after = os.getloadavg()
    counters = {}
    if server.poll() is None:
        try:
            sock = connect(port, "127.0.2.2", timeout=30)
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _, answer = read_answer(sock)
            sock.close()
            for line in answer.decode("utf-8", "replace").splitlines():
                name, _, value = line.partition(" ")
                if name in (
                    "snap_poem_log_lines_dropped_total", "snap_poem_requests_abandoned_total", "snap_poem_uploads_refused_total",
                    'snap_poem_connections_cut_total{deadline="header"}', 'snap_poem_connections_cut_total{deadline="request"}',
                    "snap_poem_connections_evicted_total",
                ):
                    counters[name] = value
        except OSError:
            pass
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            server.kill()
            problems.append("the server did not stop within 120 s of SIGTERM")
    exit_status = server.returncode
    if alive and exit_status != 0:
        problems.append(f"the server exited {exit_status} on SIGTERM")

    p99 = percentile(latencies, 0.99)
    if failures:
        problems.append(f"{failures} /healthz probes failed")
    if not p99 < 100:
        problems.append(f"/healthz p99 {p99:.1f} ms")
    if peak > budget:
        problems.append(f"resident memory peaked at {peak >> 20} MB, budget {budget >> 20} MB")
    counts = honest.snapshot()
    if counts.get("200", 0) == 0:
        problems.append("no honest request succeeded")
    print(f"## make soak: {arguments.seconds} s, snap-poem serve --jobs 2\n")
    print(f"- machine: {os.cpu_count()} cores, load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"- honest requests: {sum(counts.values())} ({', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))}); "
          f"median {percentile(honest_latencies, 0.5):.2f} s, max {max(honest_latencies, default=0):.2f} s")
    print(f"- /healthz: {len(latencies)} probes, {failures} failed; p50 {percentile(latencies, 0.5):.1f} ms, "
          f"p99 {p99:.1f} ms, max {max(latencies, default=0):.1f} ms")
    print(f"- resident memory: highest sampled {highest >> 20} MB, peak (VmHWM) {peak >> 20} MB, budget {budget >> 20} MB")
    print(f"- hostile: {', '.join(f'{k}: {v}' for k, v in sorted(hostile.snapshot().items()))}")
    print(f"- server's counters: {', '.join(f'{k} {v}' for k, v in counters.items())}")
    print(f"- server: {'alive throughout' if alive else 'DIED'}, exit {exit_status} on SIGTERM; {len(log_lines)} log lines")
    if problems:
        print("\nFAILED:\n" + "\n".join(f"- {problem}" for problem in problems[:20]))
        return 1
    print("\nEvery criterion met.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
