from .cli.main import entry

raise SystemExit(entry())
