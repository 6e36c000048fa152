import Foundation

/// How a 2xx answer whose body is an array of rows may leave memory while it arrives, so that a
/// result printed as csv, json or ndjson holds a few megabytes of it, whatever its size
/// (``ArrivingElements/spill``; over `http://` and `https://` alike, ``ArrivingBody``).
///
/// Past ``memoryBytes`` the body goes to a temporary file in ``directory`` (`$TMPDIR`, else
/// `/tmp`), made `0600` with no name in it (``SpillFile``), so nothing of it is left on disk when
/// the process ends however it ends; memory keeps only what the check on arrival reads again
/// (``JSONStreamValidator/unneeded``). The answer's ``SNMResponse/body`` is then the file's
/// pages mapped into memory: a printer that walks them gives back what it passed
/// (``JSONDocument/fileBacked``). A body past ``mostBytes`` fails as too large, as one past the
/// request's `maximumBodyBytes` does in memory; the file could not be made or written (the disk
/// full, a file size limit, no such folder): the request fails with a ``TransportFileError``.
///
/// ```swift
/// let arriving = ArrivingElements(spill: BodySpill())
/// let response = try await ArrivingElements.$current.withValue(arriving) { try await send() }
/// ```
public struct BodySpill: Sendable, Equatable {
  /// The body held in memory before it goes to a file.
  public var memoryBytes: Int
  /// The largest body taken in a file.
  public var mostBytes: Int
  /// The folder of the file.
  public var directory: String

  /// 2 MiB in memory, at most 4 GiB in a file in `$TMPDIR` (else `/tmp`).
  public init(
    memoryBytes: Int = 2 << 20, mostBytes: Int = BodySpill.defaultMostBytes,
    directory: String = BodySpill.temporaryDirectory
  ) {
    self.memoryBytes = memoryBytes
    self.mostBytes = mostBytes
    self.directory = directory
  }

  /// 4 GiB: sixteen times what memory takes (`TransportRequest.defaultMaximumBodyBytes`), about
  /// 12 million of the demo's rows.
  public static let defaultMostBytes = 4 << 30

  /// `$TMPDIR` when set and not empty, else `/tmp`. Read with `getenv`, not through
  /// `ProcessInfo.processInfo.environment`, which builds the whole environment as a dictionary at
  /// every read: made for every request that may spill, that cost 84k instructions a request.
  public static var temporaryDirectory: String {
    guard let value = getenv("TMPDIR") else { return "/tmp" }
    let folder = String(cString: value)
    return folder.isEmpty ? "/tmp" : folder
  }
}
