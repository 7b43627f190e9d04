"""The logic of scripts/api-conformance.py on made-up declarations: what counts as a difference, how
it is said, and how the allowed list is judged. Needs neither the reference tree nor clang."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from api_conformance.allowed import DOC_SECTION, groups_table, judge  # noqa: E402
from api_conformance.compare import compare  # noqa: E402
from api_conformance.decls import Decl  # noqa: E402


def fn(name, signature, header="api/compute/matmul.h", unit="compute", kind="function", public=True):
    return Decl(kind, name, (header,), signature, public, unit)


def reach(*headers, unit="compute"):
    """Each header brings in itself only."""
    return {unit: {h: {h} for h in headers}}


class CompareTest(unittest.TestCase):
    def test_alike_declarations_are_no_difference(self):
        ours = [fn("ckernel::matmul_init", "void(unsigned int, unsigned int = 0)")]
        theirs = [fn("ckernel::matmul_init", "void(unsigned int, unsigned int = 0)")]
        r = compare(ours, reach("api/compute/matmul.h"), theirs, reach("api/compute/matmul.h"))
        self.assertEqual(r.differences, [])
        self.assertEqual(r.same, [("compute", "ckernel::matmul_init")])
        self.assertEqual(r.covered, {("compute", "ckernel::matmul_init")})

    def test_a_different_default_is_one_line_with_both_signatures(self):
        ours = [fn("ckernel::mm", "void(unsigned int = 1)")]
        theirs = [fn("ckernel::mm", "void(unsigned int = 0)")]
        r = compare(ours, reach("api/compute/matmul.h"), theirs, reach("api/compute/matmul.h"))
        self.assertEqual(r.differences,
                         ["[compute] ckernel::mm: ditmk `void(unsigned int = 1)`, 0.81.1 `void(unsigned int = 0)`"])

    def test_overloads_one_side_lacks_are_listed_each(self):
        ours = [fn("f", "void(int)"), fn("f", "void(int, int)"), fn("f", "void(float)")]
        theirs = [fn("f", "void(int)"), fn("f", "void(long)"), fn("f", "void(double)")]
        r = compare(ours, reach("api/compute/matmul.h"), theirs, reach("api/compute/matmul.h"))
        self.assertEqual(r.differences, [
            "[compute] f: only 0.81.1 has `void(double)`", "[compute] f: only 0.81.1 has `void(long)`",
            "[compute] f: only ditmk has `void(float)`", "[compute] f: only ditmk has `void(int, int)`"])

    def test_a_call_of_a_shared_header_that_ditmk_lacks_is_reported_and_a_missing_class_once(self):
        theirs = [fn("ckernel::add_init", "void()"),
                  fn("Noc", "class", "api/dataflow/noc.h", "dataflow", "class"),
                  fn("Noc::async_read", "void()", "api/dataflow/noc.h", "dataflow")]
        ours_reach = {"compute": {"api/compute/matmul.h": {"api/compute/matmul.h"}}, "dataflow": {}}
        r = compare([fn("ckernel::mm", "void()")], ours_reach, theirs, {})
        self.assertIn("[compute] ckernel::add_init: 0.81.1 declares it (function, api/compute/matmul.h), "
                      "ditmk does not", r.differences)
        self.assertIn("[dataflow] Noc: 0.81.1 declares it (class, api/dataflow/noc.h), ditmk does not",
                      r.differences)
        self.assertFalse([d for d in r.differences if "async_read" in d])

    def test_an_enum_says_its_kind_and_the_enumerators_one_side_lacks(self):
        ours = [fn("ckernel::PoolType", "enum : unsigned char {SUM = 0, AVG = 1}", kind="enum")]
        theirs = [fn("ckernel::PoolType", "enum class : unsigned char {SUM = 0, AVG = 1, MIN = 3}", kind="enum")]
        r = compare(ours, reach("api/compute/matmul.h"), theirs, reach("api/compute/matmul.h"))
        self.assertEqual(r.differences, [
            "[compute] ckernel::PoolType: ditmk `enum : unsigned char`, 0.81.1 `enum class : unsigned char`",
            "[compute] ckernel::PoolType: only 0.81.1 has MIN = 3"])

    def test_a_call_not_reachable_from_0_81_1s_header_is_a_header_difference(self):
        ours = [fn("get_named", "int()", "api/named.h")]
        theirs = [fn("get_named", "int()", "api/compile_time_args.h")]
        both = {"compute": {"api/named.h": {"api/named.h"}, "api/compile_time_args.h": {"api/compile_time_args.h"}}}
        r = compare(ours, both, theirs, both)
        self.assertIn("[compute] get_named: 0.81.1 declares it in api/compile_time_args.h; ditmk in api/named.h",
                      r.differences)
        # Once ditmk's header of that path brings it in, the header is right.
        both["compute"]["api/compile_time_args.h"].add("api/named.h")
        r = compare(ours, both, theirs, both)
        self.assertEqual(r.differences, [])

    def test_ckernel_names_are_found_for_global_ones(self):
        ours = [fn("cb_wait_front", "void(int, int)", "api/compute/cb_api.h")]
        theirs = [fn("ckernel::cb_wait_front", "void(int, int)", "api/compute/cb_api.h")]
        r = compare(ours, reach("api/compute/cb_api.h"), theirs, reach("api/compute/cb_api.h"))
        self.assertEqual(r.differences, ["[compute] cb_wait_front: 0.81.1 declares it in namespace ckernel, "
                                         "ditmk in the global namespace"])

    def test_a_difference_of_both_apis_is_one_line(self):
        ours = [fn("ASSERT", "macro(x)", "api/debug/assert.h", u, "macro") for u in ("compute", "dataflow")]
        theirs = [fn("ASSERT", "macro(x, ...)", "api/debug/assert.h", u, "macro") for u in ("compute", "dataflow")]
        both = {u: {"api/debug/assert.h": {"api/debug/assert.h"}} for u in ("compute", "dataflow")}
        r = compare(ours, both, theirs, both)
        self.assertEqual(r.differences, ["[compute, dataflow] ASSERT: ditmk `macro(x)`, 0.81.1 `macro(x, ...)`"])

    def test_header_files_only_one_side_has(self):
        r = compare([], reach("compute_kernel_api/matmul.h"), [], reach("api/compute/tilize.h"))
        self.assertEqual(r.differences, ["[compute] header api/compute/tilize.h: only 0.81.1 has it",
                                         "[compute] header compute_kernel_api/matmul.h: only ditmk has it"])


class JudgeTest(unittest.TestCase):
    GROUPS = [{"calls": "`f`", "class": "deviating", "reason": "f takes an int here", "differences": ["a", "b"]}]

    def doc(self, groups):
        return f"# x\n{DOC_SECTION}\n\n{groups_table(groups)}\n\n## next\n"

    def test_listed_differences_pass(self):
        self.assertEqual(judge(["a", "b"], self.GROUPS, self.doc(self.GROUPS)),
                         ([], [], [], {"deviating": 2, "older form": 0, "not modelled": 0, "header": 0}))

    def test_an_unlisted_difference_and_a_stale_entry_are_reported(self):
        unexpected, stale, problems, _ = judge(["a", "c"], self.GROUPS, self.doc(self.GROUPS))
        self.assertEqual((unexpected, stale, problems), (["c"], ["b"], []))

    def test_the_document_must_state_the_reason_and_the_table(self):
        _, _, problems, _ = judge(["a", "b"], self.GROUPS, f"{DOC_SECTION}\nnothing\n")
        self.assertEqual(len(problems), 2)
        other = [dict(self.GROUPS[0], **{"class": "fine"})]
        _, _, problems, _ = judge(["a", "b"], other, self.doc(other))
        self.assertEqual(len(problems), 1)
        self.assertIn("has class 'fine'", problems[0])


if __name__ == "__main__":
    unittest.main()
