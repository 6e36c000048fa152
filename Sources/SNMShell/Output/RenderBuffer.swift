import SNMWire

/// Bytes on their way to an `OutputWriter`, handed over in large chunks.
///
/// ```swift
/// var out = RenderBuffer(writer: .standardOutput)
/// out.append("id")
/// out.spaces(3)
/// out.finish()
/// ```
struct RenderBuffer {
  /// The chunk: raw room written through a pointer (an array append per field took more than
  /// the field), which rows of JSON are written straight into (``output``). A holding writer's
  /// last chunk is written on again while it has room, and kept whole when full.
  private(set) var output: JSONTextBuffer
  let writer: OutputWriter

  init(writer: OutputWriter) {
    self.writer = writer
    output = writer.reopenLastChunk() ?? Self.newChunk()
  }

  private static func newChunk() -> JSONTextBuffer {
    JSONTextBuffer(capacity: OutputWriter.chunk + 4096)
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { output.append($0) }
  }

  mutating func append(_ text: Substring) {
    append(String(text))
  }

  mutating func append(bytes more: [UInt8]) {
    more.withUnsafeBufferPointer { output.append($0) }
  }

  mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
    output.append(more)
  }

  mutating func append(_ byte: UInt8) {
    output.append(byte)
  }

  mutating func spaces(_ count: Int) {
    repeating(UInt8(ascii: " "), count)
  }

  mutating func repeating(_ byte: UInt8, _ count: Int) {
    guard count > 0 else { return }
    // Padding and rules are copied from a run kept ready.
    let run: [UInt8]
    switch byte {
    case UInt8(ascii: " "): run = Self.spaceRun
    case UInt8(ascii: "-"): run = Self.ruleRun
    default:
      for _ in 0..<count { output.append(byte) }
      return
    }
    var left = count
    run.withUnsafeBufferPointer { run in
      while left > 0 {
        let part = min(left, run.count)
        output.append(UnsafeBufferPointer(rebasing: run[..<part]))
        left -= part
      }
    }
  }

  private static let spaceRun = [UInt8](repeating: UInt8(ascii: " "), count: 128)
  private static let ruleRun = [UInt8](repeating: UInt8(ascii: "-"), count: 128)

  /// Ends a line and hands the chunk over when it is full.
  mutating func newline() {
    output.append(0x0A)
    if output.count >= OutputWriter.chunk { handOver() }
  }

  /// Hands the chunk over when it is full, in the middle of a line.
  mutating func flushIfFull() {
    if output.count >= OutputWriter.chunk { handOver() }
  }

  /// Writes `text`, a block made elsewhere and only read from now on, after what was written:
  /// a large one is handed to the writer as it is (``OutputWriter/write(block:)``), not copied
  /// into a chunk first.
  mutating func append(block text: JSONTextBuffer) {
    guard text.count >= OutputWriter.chunk else {
      output.append(text.written)
      flushIfFull()
      return
    }
    handOver()
    writer.write(block: text)
  }

  /// Writes `count` bytes that `read` puts in the room it is given, at most a chunk at a time
  /// (with how many it put before), after what was written.
  mutating func append(
    count: Int, reading read: (UnsafeMutableRawBufferPointer, _ done: Int) throws -> Void
  ) rethrows {
    var done = 0
    while done < count {
      let part = min(count - done, OutputWriter.chunk)
      output.grow(toHold: output.count + part)
      try read(UnsafeMutableRawBufferPointer(start: output.base + output.count, count: part), done)
      output.count += part
      done += part
      flushIfFull()
    }
  }

  /// Hands everything over and flushes the writer.
  mutating func finish() {
    handOver(last: true)
    writer.flush()
  }

  /// Hands the chunk to the writer; `last`: nothing more is written (a holding writer's next
  /// chunk is then not made).
  private mutating func handOver(last: Bool = false) {
    guard output.count > 0 else { return }
    if writer.isHolding {
      // Kept as it is, not copied: the text goes on in a chunk of its own.
      writer.hold(output)
      output = last ? JSONTextBuffer(capacity: 0) : Self.newChunk()
      return
    }
    writer.write(chunk: output.written)
    output.count = 0
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
