// Modifiers: what to return, how many, in which order, and the write options.
extension SupabaseQueryParameter {
  /// `select=` with the text as written; whitespace outside double quotes is removed
  /// (`"id, name"` -> `id,name`). On a write it also asks for the rows back (`return=representation`).
  public static func select(_ columns: String) -> Self {
    SupabaseQueryParameter(.select(.text(columns), returning: false))
  }

  /// `select=` from structured items, with names quoted where needed.
  public static func select(_ items: SupabaseSelectItem...) -> Self {
    SupabaseQueryParameter(.select(.items(items), returning: false))
  }

  /// `select=` from structured items (array form).
  public static func select(items: [SupabaseSelectItem]) -> Self {
    SupabaseQueryParameter(.select(.items(items), returning: false))
  }

  /// For writes: return these columns of the written rows (`select=...` and
  /// `Prefer: return=representation`).
  public static func returning(_ columns: String = "*") -> Self {
    SupabaseQueryParameter(.select(.text(columns), returning: true))
  }

  /// For writes: return these columns of the written rows (structured items).
  public static func returning(_ items: SupabaseSelectItem...) -> Self {
    SupabaseQueryParameter(.select(.items(items), returning: true))
  }

  /// For writes: return these columns of the written rows (structured items, array form).
  public static func returning(items: [SupabaseSelectItem]) -> Self {
    SupabaseQueryParameter(.select(.items(items), returning: true))
  }

  /// `order=column[.asc|.desc][.nullsfirst|.nullslast]`; a direction or nulls clause is sent only
  /// when given. Several orders for the same table join into one parameter
  /// (`order=name.desc.nullslast,id`); `"countries.name"` orders an embed (`countries.order=name`).
  public static func order(
    _ column: SupabaseColumn, ascending: Bool? = nil, nulls: SupabaseOrder.Nulls? = nil
  ) -> Self {
    SupabaseQueryParameter(.order([SupabaseOrder(column, ascending: ascending, nulls: nulls)]))
  }

  /// Several order items at once.
  public static func order(_ items: [SupabaseOrder]) -> Self {
    SupabaseQueryParameter(.order(items))
  }

  /// `limit=n` (or `table.limit=n` for an embed).
  public static func limit(_ count: Int, referencedTable: String? = nil) -> Self {
    SupabaseQueryParameter(.limit(count, referencedTable: referencedTable))
  }

  /// `offset=n` (or `table.offset=n` for an embed).
  public static func offset(_ count: Int, referencedTable: String? = nil) -> Self {
    SupabaseQueryParameter(.offset(count, referencedTable: referencedTable))
  }

  /// Exactly one row as an object: `Accept: application/vnd.pgrst.object+json` (406 PGRST116 otherwise).
  public static var single: Self { SupabaseQueryParameter(.single) }

  /// At most one row: the answer is that row, or null for none; more than one row fails with
  /// PGRST116 like ``single``. Sends no `Accept` (the array answer is checked here).
  public static var maybeSingle: Self { SupabaseQueryParameter(.maybeSingle) }

  /// `Prefer: count=exact|planned|estimated`; the total comes back in `Content-Range`.
  public static func count(_ option: SupabaseCountOption) -> Self {
    SupabaseQueryParameter(.count(option))
  }

  /// Upsert: `on_conflict=a,b` names the unique columns to match on.
  public static func onConflict(_ columns: String...) -> Self {
    SupabaseQueryParameter(.onConflict(columns))
  }

  /// Upsert: `on_conflict=a,b` (array form, for callers that build the list at run time).
  public static func onConflict(_ columns: [String]) -> Self {
    SupabaseQueryParameter(.onConflict(columns))
  }

  /// Upsert: `Prefer: resolution=ignore-duplicates` instead of merging.
  public static var ignoreDuplicates: Self { SupabaseQueryParameter(.ignoreDuplicates) }

  /// Upsert: `Prefer: resolution=merge-duplicates`, the default, said explicitly.
  public static var mergeDuplicates: Self { SupabaseQueryParameter(.mergeDuplicates) }

  /// Insert/upsert of an array: `columns="a","b"` (sent by default with every key of the array's
  /// objects, in first-seen order).
  public static func columns(_ names: [String]) -> Self {
    SupabaseQueryParameter(.columns(names))
  }

  /// A schema other than `public`: `Accept-Profile` for reads, `Content-Profile` for writes.
  public static func schema(_ name: String) -> Self {
    SupabaseQueryParameter(.schema(name))
  }

  /// The rows as CSV: `Accept: text/csv`.
  public static var csv: Self { SupabaseQueryParameter(.csv) }

  /// HEAD instead of GET (a select or `rpc get`): only the headers, so with ``count(_:)`` the
  /// total in `Content-Range` and no rows.
  public static var head: Self { SupabaseQueryParameter(.head) }

  /// Update, delete, rpc: `Prefer: handling=strict, max-affected=N`; PostgREST refuses (400
  /// PGRST124) and rolls back a write that would change more rows.
  public static func maxAffected(_ count: Int) -> Self {
    SupabaseQueryParameter(.maxAffected(count))
  }

  /// `Prefer: tx=rollback`: the server runs the statement and rolls it back (when its
  /// `db-tx-end` allows it, which `Preference-Applied: tx=rollback` confirms).
  public static var rollback: Self { SupabaseQueryParameter(.rollback) }

  /// Insert/upsert: the body, a string of CSV (a header line of column names), goes as
  /// `Content-Type: text/csv`.
  public static var csvBody: Self { SupabaseQueryParameter(.csvBody) }

  /// The execution plan instead of the rows: `Accept: application/vnd.pgrst.plan+text;
  /// for="..."; options=analyze|...` (PostgREST serves it when `db-plan-enabled` is on).
  /// Options: `analyze`, `verbose`, `settings`, `buffers`, `wal`.
  public static func plan(_ options: [String] = []) -> Self {
    SupabaseQueryParameter(.plan(options))
  }

  /// `Prefer: timezone=America/New_York`: timestamps read and written in that zone.
  public static func timezone(_ zone: String) -> Self {
    SupabaseQueryParameter(.timezone(zone))
  }
}
