"""Process runtime: settings from the environment, logs and metrics, supervision of child processes
and private Redis servers."""
