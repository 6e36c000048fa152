import SNMNetwork

/// Rows that do not all have the same keys, in a spilled answer (``BodySpill``) larger than
/// memory takes of an answer: csv builds such rows in memory to find their columns, which it
/// does not do past that size (the statement fails with exit code 1).
struct SpilledRowsTooLarge: Error, CustomStringConvertible {
  /// The answer's size.
  let bytes: Int

  var description: String {
    let limit = TransportRequest.defaultMaximumBodyBytes >> 20
    return "the rows do not all have the same keys, and csv builds such rows in memory: "
      + "the answer (\(bytes >> 20) MiB) is larger than \(limit) MiB (ask for fewer rows: "
      + "limit, or a range; or print them as json or ndjson)"
  }
}
