import Foundation
import Testing

@testable import SNMWire

/// The verdict and shape of `bytes` checked as they arrive `step` bytes at a time, a run on
/// every arrival, against the whole-body validator's.
private func arriving(_ bytes: [UInt8], step: Int) -> (stream: JSONShape?, whole: JSONShape?) {
  var checker = JSONStreamValidator(runningEvery: 1)
  var received = 0
  while received < bytes.count {
    received = min(bytes.count, received + step)
    bytes[..<received].withUnsafeBufferPointer { checker.received($0) }
  }
  let stream = bytes.withUnsafeBufferPointer { checker.finish($0) }
  let whole = bytes.withUnsafeBufferPointer { buffer in
    var validator = JSONValidator(buffer)
    return validator.validate()
  }
  return (stream, whole)
}

/// `arriving`'s stream verdict when the checked bytes it never reads again are dropped after
/// every run (``JSONStreamValidator/unneeded``), as a reader that spills the body to disk keeps
/// them: only the window is given to the checker.
private func arrivingWindowed(_ bytes: [UInt8], step: Int) -> JSONShape? {
  var checker = JSONStreamValidator(runningEvery: 1)
  var window: [UInt8] = []
  var received = 0
  while received < bytes.count {
    let next = min(bytes.count, received + step)
    window.append(contentsOf: bytes[received..<next])
    received = next
    window.withUnsafeBufferPointer { checker.received($0) }
    if let unneeded = checker.unneeded {
      window.removeSubrange(unneeded)
      checker.dropped(unneeded)
    }
  }
  return window.withUnsafeBufferPointer { checker.finish($0) }
}

/// Rows as PostgREST sends them, with strings that escape, nest and hold multi-byte characters.
private func rows(_ count: Int) -> [UInt8] {
  let rows = (0..<count).map { index in
    #"{"id":\#(index),"name":"dog \"\#(index)\", 두부 🐕\n","traits":{"a":[1,2.5e3,null,true]},"#
      + #""bio":\#(index % 3 == 0 ? "null" : "\"x\\u00e9\"")}"#
  }
  return Array(("[" + rows.joined(separator: ", \n ") + "]").utf8)
}

@Suite struct JSONStreamValidatorTests {
  @Test(arguments: JSONDocumentTests.shapes)
  func givesTheWholeBodysShape(_ testCase: ShapeCase) {
    for step in [1, 2, 3, 7] {
      let (stream, whole) = arriving(Array(testCase.input.utf8), step: step)
      #expect(stream == whole, "step \(step)")
      #expect(stream == testCase.shape, "step \(step)")
    }
  }

  @Test(arguments: LoneSurrogateTests.refusedInAnswers)
  func refusesWhatTheValidatorRefuses(_ testCase: MalformedCase) {
    for step in [1, 2, 5] {
      let (stream, whole) = arriving(testCase.input, step: step)
      #expect(stream == nil && whole == nil, "step \(step)")
    }
  }

  @Test func agreesOnRowsCutAndDamagedAnywhere() {
    let body = rows(12)
    let (stream, whole) = arriving(body, step: 1)
    #expect(whole == JSONShape(kind: .array, count: 12, uniformObjects: true))
    #expect(stream == whole)
    // Bytes changed to ones that can break it, and the body cut short, all along it.
    for offset in stride(from: 0, to: body.count, by: 5) {
      for replacement in [UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "\""), 0xFF, 0x0A] {
        var damaged = body
        damaged[offset] = replacement
        let verdicts = arriving(damaged, step: 7)
        #expect(verdicts.stream == verdicts.whole, "byte \(offset) as \(replacement)")
      }
      let cut = arriving(Array(body[..<offset]), step: 3)
      #expect(cut.stream == cut.whole, "cut at \(offset)")
    }
  }

  @Test(arguments: JSONDocumentTests.shapes)
  func givesTheWholeBodysShapeWithItsCheckedBytesDropped(_ testCase: ShapeCase) {
    for step in [1, 2, 3, 7] {
      #expect(arrivingWindowed(Array(testCase.input.utf8), step: step) == testCase.shape)
    }
  }

  @Test func agreesOnRowsDamagedAnywhereWithTheirCheckedBytesDropped() {
    let body = rows(12)
    #expect(
      arrivingWindowed(body, step: 5) == JSONShape(kind: .array, count: 12, uniformObjects: true))
    for offset in stride(from: 0, to: body.count, by: 3) {
      for replacement in [UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "\""), 0xFF] {
        var damaged = body
        damaged[offset] = replacement
        let whole = damaged.withUnsafeBufferPointer { buffer in
          var validator = JSONValidator(buffer)
          return validator.validate()
        }
        #expect(arrivingWindowed(damaged, step: 7) == whole, "byte \(offset) as \(replacement)")
      }
    }
    // A later row whose keys differ from the first row's, which is no longer in the window.
    let other = Array(#"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"nam":"c"}]"#.utf8)
    #expect(
      arrivingWindowed(other, step: 4) == JSONShape(kind: .array, count: 3, uniformObjects: false))
  }

  @Test func runsOnTheRowsOfATopLevelArrayOnly() {
    var checker = JSONStreamValidator()
    let body = rows(5000)
    var received = 0
    while received < body.count {
      received = min(body.count, received + 4096)
      body[..<received].withUnsafeBufferPointer { checker.received($0) }
    }
    #expect(checker.isUnderWay, "a body of rows is checked as it comes")
    let shape = body.withUnsafeBufferPointer { checker.finish($0) }
    #expect(shape == JSONShape(kind: .array, count: 5000, uniformObjects: true))
    var object = JSONStreamValidator()
    let one = Array(#"{"a":"#.utf8) + Array(repeating: UInt8(ascii: "1"), count: 300_000) + [125]
    one.withUnsafeBufferPointer { object.received($0) }
    #expect(!object.isUnderWay, "only a top-level array is checked on arrival")
  }
}
