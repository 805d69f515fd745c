"""Entry point of the Lorenzo il Magnifico rule service (``tabula serve lorenzo``)."""

from services.game_server import main

if __name__ == "__main__":
    main("lorenzo")
