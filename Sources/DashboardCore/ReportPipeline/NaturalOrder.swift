/// Natural order for titles and ids: digit runs compare by value (`Task 2` < `Task 10`), the
/// rest case-insensitively, then exactly, so the order is total.
package enum NaturalOrder {
    /// true when `a` goes first, false when `b` does, nil when they are equal.
    package static func compare(_ a: String, _ b: String) -> Bool? {
        if a == b { return nil }
        let x = Array(ReportPipeline.fold(a).unicodeScalars)
        let y = Array(ReportPipeline.fold(b).unicodeScalars)
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let si = i
                let sj = j
                while i < x.count && isDigit(x[i]) { i += 1 }
                while j < y.count && isDigit(y[j]) { j += 1 }
                let nx = String(String.UnicodeScalarView(x[si..<i])).drop { $0 == "0" }
                let ny = String(String.UnicodeScalarView(y[sj..<j])).drop { $0 == "0" }
                if nx.count != ny.count { return nx.count < ny.count }
                if nx != ny { return nx < ny }
                continue
            }
            if x[i] != y[j] { return x[i].value < y[j].value }
            i += 1
            j += 1
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }
}
