/// What fits at the cursor: the word being typed and the kinds of tokens that may replace it.
///
/// ```swift
/// let context = CompletionContext.at(offset: line.utf8.count, in: line)
/// if context.tables { candidates += schema.tableNames }
/// for table in context.columnsOf { candidates += schema.columns(of: table) }
/// candidates += context.keywords
/// let matches = candidates.filter { $0.hasPrefix(context.prefix) }
/// ```
/// `offset` is a UTF-8 offset into `text` (libedit's `rl_point`). `text` may hold several lines of
/// one statement. The shell supplies the names (tables, columns, variables); this says which fit.
public struct CompletionContext: Sendable, Equatable {
  /// The partial word before the cursor (`sel`, `$do`, `us`), possibly empty.
  public var prefix: String
  /// The UTF-8 range of `prefix` in the text: what a chosen completion replaces.
  public var replaceRange: SourceRange
  /// Keywords that fit (lowercase), in the parser's order.
  public var keywords: [String] = []
  /// Operators in symbol form that fit (`=`, `>=`, ...).
  public var symbols: [String] = []
  /// A table (or view) name fits.
  public var tables = false
  /// A function name (after `rpc`) fits.
  public var functions = false
  /// Column names of these tables (or embedded relations) fit.
  public var columnsOf: [String] = []
  /// An embedded relation of these tables fits (in a select list).
  public var relationsOf: [String] = []
  /// A filter operator fits (its words are also in `keywords`).
  public var operators = false
  /// A `$variable` fits.
  public var variables = false
  /// A file path fits (after `run` or `\i`).
  public var files = false
  /// A Storage bucket name fits (`storage drop bucket <here>`).
  public var buckets = false
  /// A Storage path fits (`storage ls <here>`): `prefix` is the path so far
  /// (`avatars/dogs/bo`), a bucket before its first `/`, folders and files after it.
  public var storagePaths = false
  /// A file on this machine fits (`storage upload <here>`): `prefix` is the path so far.
  public var localFiles = false
}
