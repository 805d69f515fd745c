"""Redis repositories (atomic Lua scripts) and the game-service client."""
