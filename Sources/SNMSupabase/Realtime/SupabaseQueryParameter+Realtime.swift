extension SupabaseQueryParameter {
  /// The filter as Realtime's postgres_changes `filter` takes it (`owner=eq.bob`,
  /// `id=in.(1,2)`, `title=not.is.null`), or nil for anything but one column filter.
  public var realtimeFilter: String? {
    guard case .filter(let column, let filter) = kind else { return nil }
    return column.wireKey + "=" + SupabaseQueryCompiler.render(filter, inTree: false)
  }
}
