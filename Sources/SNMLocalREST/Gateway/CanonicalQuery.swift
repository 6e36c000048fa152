import SNMWire

/// A read's `Content-Location` as PostgREST 13 writes it (Response.hs, QueryParams.hs
/// `qsCanonical`): `/` and the table's name, then the query string made canonical.
///
/// The parameters are split at `&` and `;`, their names and values percent- and plus-decoded
/// (http-types' `parseQueryReplacePlus`), sorted by name (equal names keep their order), a
/// repeated name written once with its values joined by `,`, and everything encoded again as the
/// HTTP package's `urlEncode` does: ASCII letters, digits and `-_.~` as they are, any other ASCII
/// byte as `%XX`, and a byte past ASCII as the UTF-8 of the Latin-1 character it stands for (the
/// byte `C3` is `%C3%83`). `apikey` is left out: Supabase's gateway removes it before PostgREST.
///
///     CanonicalQuery.location(table: "items", query: "select=id,name&id=eq.1")
///     // "/items?id=eq.1&select=id%2Cname"
///
/// Every read answers with it, so it is written into one byte buffer over the query's own
/// UTF-8: a query without `%` or `+` (most) is sorted as ranges of it, nothing decoded.
enum CanonicalQuery {
  static func location(table: String, query: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(table.utf8.count + query.utf8.count + 16)
    out.append(UInt8(ascii: "/"))
    out.append(contentsOf: table.utf8)
    appendQuery(query, separator: UInt8(ascii: "?"), to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The canonical query string; empty for none.
  static func canonical(_ query: String) -> String {
    var out: [UInt8] = []
    appendQuery(query, separator: nil, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `separator` (if any) and the canonical query, or nothing for an empty one.
  private static func appendQuery(_ query: String, separator: UInt8?, to out: inout [UInt8]) {
    var query = query
    query.withUTF8 { whole in
      var bytes = whole[...]
      if bytes.first == UInt8(ascii: "?") { bytes = bytes.dropFirst() }
      guard !bytes.isEmpty else { return }
      let needsDecoding = bytes.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
      var pairs = needsDecoding ? decodedPairs(bytes) : rawPairs(bytes)
      pairs.removeAll { $0.name.elementsEqual(apikey) }
      guard !pairs.isEmpty else { return }
      sortByName(&pairs)
      if let separator { out.append(separator) }
      var index = 0
      while index < pairs.count {
        let name = pairs[index].name
        if index > 0 { out.append(UInt8(ascii: "&")) }
        encode(name, into: &out)
        out.append(UInt8(ascii: "="))
        encode(pairs[index].value, into: &out)
        index += 1
        while index < pairs.count, pairs[index].name.elementsEqual(name) {
          out.append(UInt8(ascii: ","))
          encode(pairs[index].value, into: &out)
          index += 1
        }
      }
    }
  }

  private static let apikey: [UInt8] = Array("apikey".utf8)

  /// A request shape's `Content-Location` (`ShapedReads`): the location of the shape's probe
  /// request (`RequestShape.probeRequest`) cut at each slot's probe value, so that a request of
  /// the shape writes its own by putting its slots' values, encoded, in between. Sorting is by
  /// name alone, so the values never move a slot.
  struct Template: Sendable {
    /// The bytes before each slot's value, and after the last: one more than `slots`.
    var pieces: [[UInt8]]
    /// The slot whose value follows each piece but the last, in the location's order.
    var slots: [Int]

    /// Nil when the probe's location does not show each of the `slotCount` probes once.
    init?(probeLocation: String, slotCount: Int) {
      let bytes = Array(probeLocation.utf8)
      let marker = Array("%01snm-slot-".utf8)
      let close = Array("%01".utf8)
      var pieces: [[UInt8]] = []
      var slots: [Int] = []
      var piece: [UInt8] = []
      var index = 0
      while index < bytes.count {
        if bytes[index...].starts(with: marker) {
          var end = index + marker.count
          var slot = 0
          while end < bytes.count, let digit = Self.digit(bytes[end]), slot < 1_000_000 {
            slot = slot * 10 + digit
            end += 1
          }
          if end > index + marker.count, bytes[end...].starts(with: close) {
            pieces.append(piece)
            piece = []
            slots.append(slot)
            index = end + close.count
            continue
          }
        }
        piece.append(bytes[index])
        index += 1
      }
      pieces.append(piece)
      guard slots.sorted() == Array(0..<slotCount) else { return nil }
      self.pieces = pieces
      self.slots = slots
    }

    private static func digit(_ byte: UInt8) -> Int? {
      byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// The location of a request of the shape, with `shape`'s slot values.
    func location(_ shape: RequestShape) -> String {
      var out: [UInt8] = []
      out.reserveCapacity(pieces.reduce(0) { $0 + $1.count } + shape.query.utf8.count)
      var query = shape.query
      query.withUTF8 { text in
        for (index, slot) in slots.enumerated() {
          out.append(contentsOf: pieces[index])
          CanonicalQuery.appendValue(
            UnsafeBufferPointer(rebasing: text[shape.slots[slot]]), to: &out)
        }
      }
      if let last = pieces.last { out.append(contentsOf: last) }
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// A value as sent, decoded and encoded again: as it is when it holds only bytes that stay.
  static func appendValue(_ raw: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if raw.allSatisfy(PercentEncoding.isUnreserved) {
      out.append(contentsOf: raw)
    } else if raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
      encode(PercentEncoding.decode(bytes: raw[...], plusIsSpace: true)[...], into: &out)
    } else {
      encode(ArraySlice(raw), into: &out)
    }
  }

  /// A parameter's name and value: slices of the query, or of its decoded copy.
  private typealias Pair = (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)

  /// The parameters of a query with nothing to decode, as slices of one copy of its bytes.
  private static func rawPairs(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [Pair] {
    let copy = Array(bytes)
    var pairs: [Pair] = []
    pairs.reserveCapacity(4)
    QueryString.forEachPair(in: copy) { name, value in
      pairs.append((copy[name], copy[value ?? name.upperBound..<name.upperBound]))
    }
    return pairs
  }

  /// The parameters of a query with `%` or `+`, each name and value decoded.
  private static func decodedPairs(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [Pair] {
    var pairs: [Pair] = []
    QueryString.forEachPair(in: bytes) { name, value in
      pairs.append(
        (
          PercentEncoding.decode(bytes: bytes[name], plusIsSpace: true)[...],
          value.map { PercentEncoding.decode(bytes: bytes[$0], plusIsSpace: true)[...] } ?? []
        ))
    }
    return pairs
  }

  /// By name, equal names in their order: an insertion sort for the few parameters of a request,
  /// the library's (stable) sort past 16.
  private static func sortByName(_ pairs: inout [Pair]) {
    guard pairs.count > 1 else { return }
    guard pairs.count <= 16 else {
      pairs = pairs.enumerated().sorted {
        $0.element.name.elementsEqual($1.element.name)
          ? $0.offset < $1.offset : $0.element.name.lexicographicallyPrecedes($1.element.name)
      }.map(\.element)
      return
    }
    for index in 1..<pairs.count {
      let pair = pairs[index]
      var slot = index
      while slot > 0, pair.name.lexicographicallyPrecedes(pairs[slot - 1].name) {
        pairs[slot] = pairs[slot - 1]
        slot -= 1
      }
      pairs[slot] = pair
    }
  }

  private static func encode(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
    for byte in bytes {
      if PercentEncoding.isUnreserved(byte) {
        out.append(byte)
      } else if byte < 0x80 {
        escape(byte, into: &out)
      } else {
        escape(0xC0 | byte >> 6, into: &out)
        escape(0x80 | byte & 0x3F, into: &out)
      }
    }
  }

  private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "%"))
    out.append(hexDigit(byte >> 4))
    out.append(hexDigit(byte & 0x0F))
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }
}
