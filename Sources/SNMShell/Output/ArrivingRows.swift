import SNMNetwork
import SNMWire

/// A result's rows rendered as csv while the body still arrives (the transport hands over each
/// stretch of rows once it is checked, ``ArrivingElementsConsumer``), so that after the last byte
/// only the last stretch is left to render. The text is held in memory, never shown by itself:
/// it comes back with the answer (``SNMResponse/arrived``), and ``CSVRenderer`` writes it before
/// the rows after it only once the answer is whole and valid and its rows all have the first
/// row's keys, the case it renders a row at a time; any other answer (an error, cut off, not
/// JSON, rows that differ, a cancel) is rendered, or reported, exactly as before.
///
/// ```swift
/// let renderer = CSVRenderer(visible: false)
/// let response = try await ArrivingElements.$current.withValue(
///   ArrivingElements { ArrivingRows(renderer) }
/// ) { try await send() }
/// try renderer.render(uniformRows: document, after: response.arrived as? ArrivingRows, to: out)
/// ```
///
/// Holding the rendered rows, and not the elements, costs what the csv text weighs beside the
/// body (24 MB for the 33 MiB body of 100,000 of the demo's rows), and never more than
/// ``mostHeld``: past it the rows wait for the last byte, as they all did before.
struct ArrivingRows: ArrivingElementsConsumer {
  /// The csv text held before rows stop being taken (32 MiB), so that an answer near the body
  /// limit (256 MiB) costs at most about this much more memory than it did.
  static let mostHeld = 32 << 20

  /// Renders the rows, as it will render the rest.
  let renderer: CSVRenderer
  /// The header and a record per row taken.
  let held = OutputWriter.holding()
  /// Where the rows taken end; nil once one could not be rendered (not an object, or a header
  /// without columns): the whole body is then rendered as if nothing had arrived.
  private(set) var position: JSONElements.Position? = .start

  /// Stops taking rows once it holds `mostHeld` bytes (tests hold less).
  let mostHeld: Int

  init(_ renderer: CSVRenderer, mostHeld: Int = Self.mostHeld) {
    self.renderer = renderer
    self.mostHeld = mostHeld
  }

  mutating func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int) {
    guard let start = position, count > start.count, held.heldBytes < mostHeld else {
      return
    }
    var out = RenderBuffer(writer: held)
    defer { out.finish() }
    do {
      if start.count == 0 {
        // The header is the first row's keys, as `JSONDocument.firstRowKeys` reads them.
        let columns = try JSONElements.withElements(of: checked, from: .start) {
          try $0.nextRowKeys()
        }
        guard let columns, !columns.isEmpty else {
          position = nil
          return
        }
        renderer.writeHeader(columns, to: &out)
      }
      position = try JSONElements.withElements(of: checked, from: start) { elements in
        let finished = try renderer.writeRows(
          of: &elements, limit: count - start.count, to: &out)
        return finished ? elements.position : nil
      }
    } catch {
      position = nil
    }
  }

  /// Where the rows of `document` after the ones held start, when `renderer` may write the held
  /// text in place of rendering them: it renders as this did, and the document (that of the
  /// answer this came back with) is its bytes, an array of at least the rows taken; else nil.
  func resumption(of document: JSONDocument, by renderer: CSVRenderer) -> JSONElements.Position? {
    guard let position, position.count > 0, renderer.visible == self.renderer.visible,
      renderer.crlf == self.renderer.crlf,
      document.shape.kind == .array, document.shape.count >= position.count,
      !document.bytes.isEmpty
    else { return nil }
    return position
  }
}
