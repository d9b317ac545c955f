"""The ``cloister`` command line (minimal until the full client lands)."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="cloister")
    sub = parser.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="run the server (embedded Redis unless REDIS_URL)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    sub.add_parser("schema", help="print the JSON Schema of every wire message")
    args = parser.parse_args(argv)
    if args.cmd == "serve":
        from server.config import Settings
        from server.run import serve as run

        print(f"Cloister on http://{args.host}:{args.port}/", file=sys.stderr)
        run(Settings.from_env(), args.host, args.port)
    elif args.cmd == "schema":
        from protocol import json_schema

        print(json.dumps(json_schema(), indent=2))


if __name__ == "__main__":
    main()
