import Testing

@testable import SNMGateway

/// A result's cells read in place (`PGRawRow.cell`) on the scratch cluster
/// (`SNM_REST_TEST_PGHOST`, as the REST database tests; skipped without it): read with two
/// libpq calls a cell (an empty one asked whether it is NULL), they are what the three calls
/// (NULL first) gave: NULLs, empty text, empty arrays and bytea, blanks and long text alike.
@Suite(.enabled(if: authStoreHost != nil)) struct PGCellsTests {
  @Test func aCellReadWithTwoCallsIsWhatThreeGave() throws {
    let connection = try PGConnection(
      conninfo: "host=\(authStoreHost ?? "") user=postgres dbname=postgres")
    var statement = PGStatement(
      "select null::text, ''::text, 'a', repeat('x', 300), null::int, g, ''::bytea, '{}'::int[],"
        + " ' ', case when g = 2 then null else '' end, case when g = 2 then '' end"
        + " from generate_series(1, 3) g")
    statement.form = .cells
    let results = try connection.pipeline([statement, PGStatement("select 1")])
    let cells = try #require(results.first?.cells)
    #expect(cells.rowCount == 3)
    var read: [[[UInt8]?]] = []
    cells.forEachRow { row in
      var cellsOfRow: [[UInt8]?] = []
      for column in 0..<Int32(cells.types.count) {
        let fast = row.cell(column).map { Array($0) }
        #expect(fast == row.cellAskingNullFirst(column).map { Array($0) }, "column \(column)")
        cellsOfRow.append(fast)
      }
      read.append(cellsOfRow)
    }
    let empty: [UInt8] = []
    #expect(read[0][0] == nil && read[0][1] == empty && read[0][4] == nil)
    #expect(read[0][6] == Array("\\x".utf8) && read[0][7] == Array("{}".utf8))
    #expect(read[0][9] == empty && read[1][9] == nil)
    #expect(read[0][10] == nil && read[1][10] == empty)
  }
}
