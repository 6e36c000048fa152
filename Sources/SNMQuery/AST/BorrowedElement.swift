extension Array {
  /// `body` with the element at `index` lent in place, for a reader of a statement's arrays (the
  /// `where` tree's predicates, a select list's items) that must not copy the element out.
  ///
  /// Why `inout`, and why unsafe: Swift copies an element read out of an array's storage before
  /// passing it on, even through `withUnsafeBufferPointer` and to a `borrowing` parameter (a
  /// select field's or a predicate's names, path and value retained, the element copied and
  /// destroyed: measured +146 a statement for the predicates, +190 for the select items); an
  /// `inout` argument is passed as the element's address, so nothing is copied. The address is
  /// the array's shared storage, made mutable with `UnsafeMutableBufferPointer(mutating:)`.
  ///
  /// The contract: `body` reads the element and never writes it (a write would change every copy
  /// of the array, behind copy-on-write's back). Debug builds check it: the element's bytes are
  /// kept before `body` and compared after, and a change stops the process
  /// (`BorrowedElementTests` shows it does).
  func withBorrowedElement<Result>(at index: Int, _ body: (inout Element) throws -> Result)
    rethrows -> Result
  {
    try withUnsafeBufferPointer { elements in
      precondition(elements.indices.contains(index), "index out of range")
      guard let start = elements.baseAddress else { preconditionFailure("index out of range") }
      let element = UnsafeMutablePointer(mutating: start + index)
      #if DEBUG
        let before = Array<UInt8>(
          UnsafeRawBufferPointer(start: element, count: MemoryLayout<Element>.size))
        defer {
          precondition(
            before.elementsEqual(
              UnsafeRawBufferPointer(start: element, count: MemoryLayout<Element>.size)),
            "an element lent by withBorrowedElement(at:) was written")
        }
      #endif
      return try body(&element.pointee)
    }
  }
}
