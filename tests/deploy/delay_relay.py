#!/usr/bin/env python3
"""A TCP relay that stands for the distance to a client's region.

This machine's kernel has no netem, so bench_remote.sh puts this relay in
each client's path instead: every connection accepted is held DELAY ms
before the relay opens its own to the server, and the first bytes each
way are held DELAY/2 ms more (the request and the answer crossing the
distance once each). So a fresh connection's TLS and first byte take
about the region's round trip, as seen from the client; once a
connection is open its bytes pass at once (wrk's kept-alive connections
then load the server at full speed). The TCP handshake itself is
answered by this machine at once: connect times stay near zero.

usage: delay_relay.py LISTEN_ADDR:PORT=SERVER_ADDR:PORT@DELAY_MS ...
Runs until killed; listens with a backlog of 8192 so that the relay is
never the one to overflow.
"""
import asyncio
import socket
import sys


async def pipe(reader, writer, hold):
    try:
        first = True
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if first and hold > 0:
                await asyncio.sleep(hold)
            first = False
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


def handler(server_host, server_port, delay):
    async def serve(creader, cwriter):
        await asyncio.sleep(delay)
        try:
            sreader, swriter = await asyncio.open_connection(server_host, server_port)
        except OSError:
            cwriter.close()
            return
        await asyncio.gather(pipe(creader, swriter, delay / 2),
                             pipe(sreader, cwriter, delay / 2))
    return serve


async def main(specs):
    servers = []
    for spec in specs:
        listen, rest = spec.split("=", 1)
        upstream, ms = rest.split("@", 1)
        lhost, lport = listen.rsplit(":", 1)
        uhost, uport = upstream.rsplit(":", 1)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((lhost, int(lport)))
        servers.append(await asyncio.start_server(
            handler(uhost, int(uport), int(ms) / 1000.0), sock=sock, backlog=8192))
    print("relay listening", flush=True)
    await asyncio.gather(*(s.serve_forever() for s in servers))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
