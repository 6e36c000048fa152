import SNMQuery

/// Runs snm statements: at the prompt, from scripts, after `-c` and from standard input.
public enum Shell {}
