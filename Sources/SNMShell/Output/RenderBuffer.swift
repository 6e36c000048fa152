/// Bytes on their way to an `OutputWriter`, handed over in large chunks.
///
/// ```swift
/// var out = RenderBuffer(writer: .standardOutput)
/// out.append("id")
/// out.spaces(3)
/// out.finish()
/// ```
struct RenderBuffer {
  private(set) var bytes: [UInt8] = []
  let writer: OutputWriter

  init(writer: OutputWriter) {
    self.writer = writer
    bytes.reserveCapacity(OutputWriter.chunk)
  }

  mutating func append(_ text: String) {
    // Through the contiguous UTF-8: the view's generic append retained and copied per call.
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ text: Substring) {
    bytes.append(contentsOf: text.utf8)
  }

  mutating func append(bytes more: [UInt8]) {
    bytes.append(contentsOf: more)
  }

  mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: more)
  }

  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Runs `body` on the chunk's bytes, for a writer that appends to them in place (a row's JSON
  /// text goes straight into the chunk, not into an array of its own that is then copied).
  mutating func appending<Result>(_ body: (inout [UInt8]) throws -> Result) rethrows -> Result {
    try body(&bytes)
  }

  mutating func spaces(_ count: Int) {
    repeating(UInt8(ascii: " "), count)
  }

  mutating func repeating(_ byte: UInt8, _ count: Int) {
    guard count > 0 else { return }
    // Padding and rules are copied from a run kept ready (a generic repeated sequence is
    // appended a byte at a time).
    let run: [UInt8]
    switch byte {
    case UInt8(ascii: " "): run = Self.spaceRun
    case UInt8(ascii: "-"): run = Self.ruleRun
    default:
      bytes.append(contentsOf: repeatElement(byte, count: count))
      return
    }
    var left = count
    while left > 0 {
      let part = min(left, run.count)
      bytes.append(contentsOf: run[..<part])
      left -= part
    }
  }

  private static let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 128)
  private static let ruleRun = [UInt8](repeating: UInt8(ascii: "-"), count: 128)

  /// Ends a line and hands the chunk over when it is full.
  mutating func newline() {
    bytes.append(0x0A)
    if bytes.count >= OutputWriter.chunk { handOver() }
  }

  /// Hands the chunk over when it is full, in the middle of a line.
  mutating func flushIfFull() {
    if bytes.count >= OutputWriter.chunk { handOver() }
  }

  /// Hands everything over and flushes the writer.
  mutating func finish() {
    handOver()
    writer.flush()
  }

  private mutating func handOver() {
    writer.write(bytes: bytes)
    bytes.removeAll(keepingCapacity: true)
  }
}

/// How output is laid out for where it goes.
public struct RenderStyle: Sendable, Equatable {
  /// Fit tables within this many columns (wrapping text, never cutting a value); nil lays them
  /// out at their full width (output to a pipe or file).
  public var width: Int?
  /// Whether ANSI colour may be used.
  public var colour: Bool
  /// Whether the output goes to a terminal: then csv shows control characters as escapes too
  /// (``VisibleText``), as the table formats always do; to a file or pipe it keeps the data as is.
  public var terminal: Bool
  /// What the table formats show for NULL (`set null`).
  public var nullText: String
  /// `set expanded auto`: a table that cannot fit `width` even with its text wrapped prints in
  /// the expanded format instead.
  public var autoExpand: Bool
  /// `--csv-crlf`: csv lines end in CRLF (RFC 4180) instead of LF.
  public var csvCRLF: Bool

  public init(
    width: Int? = nil, colour: Bool = false, terminal: Bool = false, nullText: String = "NULL",
    autoExpand: Bool = false, csvCRLF: Bool = false
  ) {
    self.width = width
    self.colour = colour
    self.terminal = terminal
    self.nullText = nullText
    self.autoExpand = autoExpand
    self.csvCRLF = csvCRLF
  }

  static let bold = "\u{1B}[1m"
  static let dim = "\u{1B}[2m"
  static let reset = "\u{1B}[0m"
}
