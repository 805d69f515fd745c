"""The asynchronous half: the reactor (outbox -> Celery tasks), thin Celery tasks, and bots.

``jobs`` holds the plain functions the tasks call, ``planner`` decides what a notice needs,
``bots`` the per-game players. Nothing here builds a client at import time.
"""
