from services.cli import app

app()
