import ArgumentParser
import Foundation
import HandyStream

extension Bench {
    /// The runs of `--lines-file`, which `--only` picks by a prefix of their name; each but yajl's is run on one
    /// thread and on `--jobs`.
    static let linesRuns = ["yajl bare", "models", "codable", "jsontext", "validation"]

    /// JSON Lines (or the elements at `path` of one document) decoded through `forEachValue` on one thread and on
    /// `jobs`, round by round interleaved, beside yajl's bare tokenizer on one thread: medians, the speed-up, and the
    /// share of yajl's speed.
    func runLines(_ file: String, at path: String = "") throws {
        do {
            try ChunkReader.read(file: file, chunkSize: 1) { _ in false }
        } catch {
            throw ExitCode.report(error, file: file)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        func decoding<T>(_ type: T.Type, jobs: Int, _ found: @escaping (T) -> Bool) -> () throws -> Int {
            {
                var count = 0
                try ModelDecoder().forEachValue(of: type, at: path, inFileAt: file, jobs: jobs) {
                    count += found($0) ? 1 : 0
                }
                return count
            }
        }
        var runs: [(name: String, jobs: Int, run: () throws -> Int)] = [
            ("yajl bare", 1, { try BareTokenizer.parseFile(file, multipleValues: path.isEmpty) })
        ]
        for jobs in [1, jobs] {
            runs += [
                ("models", jobs, decoding(GeneratedItem.self, jobs: jobs) { !$0.tags.isEmpty }),
                ("codable", jobs, decoding(PlainCodable.GeneratedItem.self, jobs: jobs) { !$0.tags.isEmpty }),
                ("jsontext", jobs, decoding(JSONText.self, jobs: jobs) { !$0.bytes.isEmpty }),
                ("validation", jobs, decoding(Validation.self, jobs: jobs) { _ in true }),
            ]
        }
        if let only { runs = runs.filter { $0.name.hasPrefix(only.lowercased()) } }
        var seconds = Array(repeating: [Double](), count: runs.count)
        var found = Array(repeating: 0, count: runs.count)
        for _ in 0..<rounds {
            for (index, run) in runs.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                found[index] = try run.run()
                seconds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                precondition(found[index] > 0, "\(run.name) found nothing")
            }
        }
        let rates = seconds.map { Double(size) / median($0) / 1e6 }
        let yajl = zip(runs, rates).first { $0.0.name == "yajl bare" }?.1
        let what = path.isEmpty ? "JSON Lines" : "one document, elements at \(path)"
        print("\(file): \(size.formatted()) bytes of \(what), \(rounds) interleaved rounds (medians):")
        printTable(
            header: ["run", "threads", "throughput", "vs 1 thread", "vs yajl bare", "found"],
            rows: runs.indices.map { index in
                let run = runs[index]
                let single = runs.indices.first { runs[$0].name == run.name && runs[$0].jobs == 1 }.map { rates[$0] }
                return [
                    run.name, "\(run.jobs)", format(rates[index]),
                    single.map { String(format: "%.2f×", rates[index] / $0) } ?? "",
                    yajl.map { String(format: "%.2f×", rates[index] / $0) } ?? "", found[index].formatted(),
                ]
            })
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("Peak resident memory of this process: \(usage.ru_maxrss / 1024) MB")
    }
}
