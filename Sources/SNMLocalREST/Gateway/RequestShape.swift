import SNMGateway
import SNMWire

/// What of a GET decides its statement, with the values of its simple comparisons left out: the
/// key of `RequestShapeCache`.
///
/// ```swift
/// // GET /rest/v1/dog_profile?select=*&id=eq.4242, as service_role
/// let shape = RequestShape(request, role: "service_role")
/// shape?.raw(0)   // "4242", the value of `id=eq.`: `id=eq.7` has the same key
/// ```
/// The key holds the role (its length first), the path, the query string (each `&`/`;` piece
/// as sent, but for a filter `[not.]eq|neq|gt|gte|lt|lte.` on a plain column name, whose value
/// is a slot) and the headers that change the plan: `Accept`, `Accept-Profile`, `Prefer` (every
/// field) and `Range`.
/// Everything else about the statement (`select`, `order`, `limit`, `in.`, `like.`, `or=`...)
/// stays in the key as written. Only the values of those six operators become slots: PostgREST
/// binds them as they are, whatever they hold; the gateway checks that for each shape before it
/// keeps one (`ShapedReads.learn`). Nil for a shape longer than `longestKey` bytes, which
/// is answered the usual way and never kept.
struct RequestShape: Sendable {
  var key: String
  /// The request's query string, which `slots` index.
  var query: String
  /// Where the slots' values are in `query` (UTF-8 offsets, still percent-encoded), in order.
  var slots: [Range<Int>]

  /// The longest key kept, in bytes.
  static let longestKey = 4_096

  /// Names that are no column: reserved words (`order`, `or`, ...) and `apikey`.
  static let reservedNames: [[UInt8]] = [
    "select", "columns", "on_conflict", "order", "limit", "offset", "and", "or", "apikey",
  ].map { Array($0.utf8) }

  /// The operators whose value is a slot.
  static let slotOperators: [[UInt8]] = ["eq", "neq", "gt", "gte", "lt", "lte"].map {
    Array($0.utf8)
  }

  /// Written byte by byte: a request's shape is found before anything else of it is parsed.
  init?(_ request: HTTPRequest, role: String) {
    var query = request.query
    var bytes: [UInt8] = []
    bytes.reserveCapacity(role.utf8.count + request.path.utf8.count + query.utf8.count + 96)
    // The role's length first: a role is any text a token names.
    let roleLength = role.utf8.count
    if roleLength < 100 {  // as `String(roleLength)` writes it, without making the string
      if roleLength >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(roleLength / 10)) }
      bytes.append(UInt8(ascii: "0") + UInt8(roleLength % 10))
    } else {
      bytes.append(contentsOf: String(roleLength).utf8)
    }
    bytes.append(UInt8(ascii: ":"))
    bytes.append(contentsOf: role.utf8)
    bytes.append(0x0A)
    bytes.append(contentsOf: request.path.utf8)
    bytes.append(0x0A)
    var slots: [Range<Int>] = []
    query.withUTF8 { text in
      var start = 0
      while start < text.count {
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "&"), text[end] != UInt8(ascii: ";") {
          end += 1
        }
        if let valueStart = Self.slotValueStart(text, start, end) {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<valueStart]))
          bytes.append(UInt8(ascii: "$"))
          slots.append(valueStart..<end)
        } else {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
        }
        bytes.append(UInt8(ascii: "&"))
        start = end + 1
      }
    }
    // One pass over the fields finds the first Accept, Accept-Profile and Range and whether
    // there is a Prefer (names told apart by their length before their bytes are compared).
    let fields = request.headers.fields
    var found: (accept: Int?, profile: Int?, range: Int?) = (nil, nil, nil)
    var prefers = false
    for index in fields.indices {
      let name = fields[index].name
      switch name.utf8.count {
      case 6:
        if found.accept == nil, HTTPHeaders.sameName(name, "Accept") {
          found.accept = index
        } else if HTTPHeaders.sameName(name, "Prefer") {
          prefers = true
        }
      case 14:
        if found.profile == nil, HTTPHeaders.sameName(name, "Accept-Profile") {
          found.profile = index
        }
      case 5:
        if found.range == nil, HTTPHeaders.sameName(name, "Range") { found.range = index }
      default: break
      }
    }
    func appendField(_ index: Int?) {
      bytes.append(0x0A)
      if let index {
        bytes.append(UInt8(ascii: "+"))
        bytes.append(contentsOf: fields[index].value.utf8)
      } else {
        bytes.append(UInt8(ascii: "-"))
      }
    }
    appendField(found.accept)
    appendField(found.profile)
    appendField(found.range)
    if prefers {
      for field in fields where HTTPHeaders.sameName(field.name, "Prefer") {
        bytes.append(0x0A)
        bytes.append(UInt8(ascii: "p"))
        bytes.append(contentsOf: field.value.utf8)
      }
    }
    guard bytes.count <= Self.longestKey else { return nil }
    // Every part is a string's UTF-8, so the bytes are UTF-8: nothing is repaired.
    key = String(decoding: bytes, as: UTF8.self)
    self.query = query
    self.slots = slots
  }

  /// Where the value of `text[start..<end]` starts when that piece is a slotted comparison,
  /// `name=[not.]op.value`: the name a plain column (letters, digits, `_`) that is no reserved
  /// name, `op` one of `slotOperators`.
  static func slotValueStart(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
    var index = start
    while index < end {
      let byte = text[index]
      guard
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
      else { break }
      index += 1
    }
    guard index > start, index < end, text[index] == UInt8(ascii: "=") else { return nil }
    let name = UnsafeBufferPointer(rebasing: text[start..<index])
    if reservedNames.contains(where: { $0.elementsEqual(name) }) { return nil }
    index += 1
    if end - index >= 4, text[index] == UInt8(ascii: "n"), text[index + 1] == UInt8(ascii: "o"),
      text[index + 2] == UInt8(ascii: "t"), text[index + 3] == UInt8(ascii: ".")
    {
      index += 4
    }
    let operatorStart = index
    while index < end, text[index] != UInt8(ascii: ".") { index += 1 }
    guard index < end else { return nil }
    let op = UnsafeBufferPointer(rebasing: text[operatorStart..<index])
    guard slotOperators.contains(where: { $0.elementsEqual(op) }) else { return nil }
    return index + 1
  }

  /// Slot `index`'s value as sent.
  func raw(_ index: Int) -> String {
    var query = query
    return query.withUTF8 {
      String(decoding: UnsafeBufferPointer(rebasing: $0[slots[index]]), as: UTF8.self)
    }
  }

  /// Slot `index`'s value as the query string's parser decodes it; nil when it would fail there
  /// (a NUL byte, not UTF-8), for the usual path to answer with its error.
  func decoded(_ index: Int) -> String? {
    var query = query
    let range = slots[index]
    return query.withUTF8 { text -> String? in
      let raw = UnsafeBufferPointer(rebasing: text[range])
      if !raw.contains(where: {
        $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 >= 0x80 || $0 == 0
      }) {
        return String(decoding: raw, as: UTF8.self)
      }
      return try? QueryString.decode(ArraySlice(raw))
    }
  }

  /// The raw text of slot `index` in a probe (`ShapedReads.learn`), and its decoded value.
  static func probe(_ index: Int) -> (raw: String, decoded: String) {
    ("%01snm-slot-\(index)%01", "\u{1}snm-slot-\(index)\u{1}")
  }

  /// `request` with each slot's value replaced by its probe's.
  func probeRequest(_ request: HTTPRequest) -> HTTPRequest {
    var query = query
    let probed = query.withUTF8 { text -> String in
      var bytes: [UInt8] = []
      var last = 0
      for (index, slot) in slots.enumerated() {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[last..<slot.lowerBound]))
        bytes.append(contentsOf: Self.probe(index).raw.utf8)
        last = slot.upperBound
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[last...]))
      return String(decoding: bytes, as: UTF8.self)
    }
    var probe = HTTPRequest(method: request.method, target: request.path + "?" + probed)
    probe.headers = request.headers
    return probe
  }
}
