/// A Postgres type as the generator needs it: a built-in by name, a user type by schema and
/// name, an array of one, or a type the source could not describe.
public indirect enum TypeRef: Sendable, Equatable, Hashable {
  /// A base type by its catalog name (`int8`, `timestamptz`, `citext`, `vector`).
  case base(String)
  case enumeration(schema: String, name: String)
  case composite(schema: String, name: String)
  /// The row type of a table or view.
  case row(schema: String, name: String)
  case range(String)
  case array(TypeRef)
  /// JSON of unknown shape (`record`, a type the source does not describe).
  case json
}
