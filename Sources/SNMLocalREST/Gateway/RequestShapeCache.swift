import SNMGateway
import Synchronization

/// Reads answered from their columns, kept by the shape of the request (`RequestShape`): the
/// statement with its slots, the parsed context and the encoders, so that a request of a known
/// shape goes straight to the database (`ShapedReads`).
///
/// ```swift
/// let shapes = RequestShapeCache()
/// shapes.record(shape.key, version: 3, read: read)   // nil: answer that shape the usual way
/// if case .read(let read) = shapes.lookup(shape.key, version: 3) { ... }
/// ```
/// Each entry belongs to one version of the schema cache; a reload empties it (`removeAll`).
/// Bounded: at most `limits.entries` entries and `limits.bytes` bytes of keys and statements;
/// beyond either, entries are dropped (any, one at a time) until the new one fits, so a client
/// sending ever new shapes cannot grow it.
final class RequestShapeCache: Sendable {
  struct Limits: Sendable {
    var entries = 1_024
    var bytes = 2 << 20
  }

  /// The encoders a columns read was written with, for the types of its columns.
  struct Encoders {
    var types: [UInt32]
    var iso: RowJSONEncoder
    var otherDates: RowJSONEncoder?
  }

  /// A read of one shape; a class, so that a lookup hands out a reference, not a copy of its
  /// context.
  final class Read: Sendable {
    enum Parameter: Sendable, Equatable {
      case constant(String?)
      /// The value of the request's slot `n`, decoded.
      case slot(Int)
    }

    /// The schema cache's version it was planned with.
    let version: Int
    let sql: String
    let parameters: [Parameter]
    /// The request's context with no request, query or caller in it (each request's own go in).
    let context: RESTGateway.Context
    let offset: Int
    /// Whether the answer may be streamed (more than a batch of rows).
    let streams: Bool
    let types: [UInt32]
    let iso: RowJSONEncoder
    let otherDates: RowJSONEncoder?
    /// The answer's `Content-Location`, written with each request's slot values (a table's).
    let location: CanonicalQuery.Template?
    /// `KnownCodeReads.plainRead` of its plan (its guarded statement written under the same
    /// schema cache version).
    let plainRead: KnownCodeReads.PlainRead?

    init(
      version: Int, sql: String, parameters: [Parameter], context: RESTGateway.Context,
      offset: Int, streams: Bool, types: [UInt32], iso: RowJSONEncoder,
      otherDates: RowJSONEncoder?, location: CanonicalQuery.Template?,
      plainRead: KnownCodeReads.PlainRead? = nil
    ) {
      self.plainRead = plainRead
      self.version = version
      self.sql = sql
      self.parameters = parameters
      self.context = context
      self.offset = offset
      self.streams = streams
      self.types = types
      self.iso = iso
      self.otherDates = otherDates
      self.location = location
    }

    /// The same read written with other encoders (the types of its columns changed).
    func relearnt(_ written: Encoders) -> Read {
      Read(
        version: version, sql: sql, parameters: parameters, context: context, offset: offset,
        streams: streams, types: written.types, iso: written.iso, otherDates: written.otherDates,
        location: location, plainRead: plainRead)
    }
  }

  enum Lookup {
    case miss
    /// A shape whose statement depends on more than its slots.
    case usual
    case read(Read)
  }

  private struct Entry {
    var version: Int
    var read: Read?
    var bytes: Int
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var hits = 0
  }

  let limits: Limits
  private let state = Mutex(State())

  init(limits: Limits = Limits()) {
    self.limits = limits
  }

  func lookup(_ key: String, version: Int) -> Lookup {
    state.withLock { state in
      guard let entry = state.entries[key], entry.version == version else { return .miss }
      state.hits += 1
      return entry.read.map { .read($0) } ?? .usual
    }
  }

  /// Keeps `read` (nil: the usual way) for `key` under schema cache `version`.
  func record(_ key: String, version: Int, read: Read?) {
    var bytes = key.utf8.count + 64
    if let read {
      bytes += read.sql.utf8.count + 16 * read.parameters.count
      for case .constant(let value?) in read.parameters { bytes += value.utf8.count }
    }
    guard bytes <= limits.bytes else { return }
    state.withLock { state in
      if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
      while !state.entries.isEmpty
        && (state.entries.count >= limits.entries || state.bytes + bytes > limits.bytes)
      {
        let dropped = state.entries.remove(at: state.entries.startIndex)
        state.bytes -= dropped.value.bytes
      }
      state.entries[key] = Entry(version: version, read: read, bytes: bytes)
      state.bytes += bytes
    }
  }

  func remove(_ key: String) {
    state.withLock { state in
      if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
    }
  }

  func removeAll() {
    state.withLock { state in
      state.entries.removeAll()
      state.bytes = 0
    }
  }

  /// How many entries, their bytes and the lookups that found one (for tests).
  var usage: (entries: Int, bytes: Int, hits: Int) {
    state.withLock { ($0.entries.count, $0.bytes, $0.hits) }
  }

  /// Whether `key` has an entry, and whether it is read by shape (for tests).
  func kept(_ key: String) -> Bool? {
    state.withLock { state in state.entries[key].map { $0.read != nil } }
  }
}
