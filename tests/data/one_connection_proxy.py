#!/usr/bin/env python3
"""A TCP front for a PostgreSQL Unix socket that takes one connection, then
none: it prints its port, relays its first connection to the socket given
as argv[1], and keeps its accept queue full, so that the kernel drops the
SYN of any later connection, as an unreachable server's network would
(libpq's PQcancel() connects anew: tests/cli/postgres.bats)."""
import socket
import sys
import threading


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    print(port, flush=True)
    client, _ = listener.accept()
    # a backlog of 0 holds one connection not accepted: this one fills it
    filler = socket.create_connection(("127.0.0.1", port))
    server = socket.socket(socket.AF_UNIX)
    server.connect(sys.argv[1])
    back = threading.Thread(target=pump, args=(server, client), daemon=True)
    back.start()
    pump(client, server)
    back.join()
    filler.close()


if __name__ == "__main__":
    main()
