/// The phase of a builder chain, as a type: `request()` exists only once a table is set.
///
/// ```swift
/// manager.fetchData().setTable("dog").request()   // compiles
/// manager.fetchData().request()                   // does not: the chain has no table
/// ```
public protocol SupabaseDBBuilderPhase: Sendable {}

/// The phases of ``SupabaseDBRequestBuilder``.
public enum SupabaseDBPhase {
  /// Started, no table yet: `setTable` is available, `request()` is not.
  public enum NeedsTable: SupabaseDBBuilderPhase {}
  /// A table (or an rpc function) is set: `request()`, `build()` and the renderers are available.
  public enum Ready: SupabaseDBBuilderPhase {}
}
