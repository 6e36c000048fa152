/// The snm language: source, lexer, parser, AST, diagnostics and the compiler to builder calls.
public enum SNMQuery {}
