#include "tools/frontend/shown_edits.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace coop::frontend {
namespace {

using namespace clang;

// The entry of `entries` that shows `name`'s access on a line of text `line`: "name" on every
// line, "name on the line with TEXT" where the line holds TEXT; null when none does.
const std::string* showing(const std::vector<std::string>& entries, const std::string& name,
                           std::string_view line) {
  for (const std::string& entry : entries) {
    const coop::ShownEntry e = coop::split_shown_entry(entry);
    if (e.name == name && (e.line_text.empty() || line.find(e.line_text) != line.npos))
      return &entry;
  }
  return nullptr;
}

bool increment_or_decrement(const Stmt* s) {
  const auto* u = dyn_cast_or_null<UnaryOperator>(s);
  return u && u->isIncrementDecrementOp();
}

// How one access uses its element, in the forms that decide whether it is shown.
enum class Use { Store, Load, Update, Address, Other, Unevaluated };

class ShownVisitor : public RecursiveASTVisitor<ShownVisitor> {
 public:
  ShownVisitor(ASTContext& context, const ShownNames& names, LaunchEdits& into)
      : context_(context), sm_(context.getSourceManager()), names_(names), into_(into) {}

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var) return true;
    const std::string name = var->getNameAsString();
    if (!names_.names(name)) return true;
    // Device code only: a variable of a __global__ or __device__ function (a __shared__ one,
    // a parameter, a pointer of its own), used there or in a lambda of it.
    const auto* fn = dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod());
    if (!fn || !(fn->hasAttr<CUDAGlobalAttr>() || fn->hasAttr<CUDADeviceAttr>())) return true;
    if (!sm_.isWrittenInMainFile(sm_.getExpansionLoc(ref->getBeginLoc()))) return true;
    seen_.insert(name);
    const std::string_view line = line_of(ref->getBeginLoc());
    const std::string* store_entry = showing(names_.stores, name, line);
    const std::string* load_entry = showing(names_.loads, name, line);
    const bool stores = store_entry != nullptr, loads = load_entry != nullptr;
    if (!stores && !loads) return true;
    const Expr* element = element_of(ref);
    if (element == nullptr) return pointer_use(ref, name);
    const Stmt* user = nullptr;
    const Use use = use_of(element, &user);
    if (use == Use::Unevaluated) return true;
    const std::string written = text(element);
    if ((use == Use::Store && stores) || (use == Use::Load && loads)) {
      std::string why;
      if (fn->hasAttr<CUDAHostAttr>() && !fn->getAttr<CUDAHostAttr>()->isImplicit())
        why = "in a __host__ __device__ function (traced(...) is device code)";
      else if (element->getBeginLoc().isMacroID() || element->getEndLoc().isMacroID())
        why = "written in a macro";
      else if (!element->getType()->isScalarType() && !element->getType()->isDependentType())
        why = "an element of type " + element->getType().getAsString() +
              " (numbers and pointers are shown)";
      else if (use == Use::Store && !value_unused(user))
        why = "the assignment's value is used (write `" + written + " = v;` on its own)";
      if (!why.empty()) return not_shown(ref, "`" + written + "`: " + why);
      used_.insert(use == Use::Store ? *store_entry : *load_entry);
      const char* traced = use == Use::Store ? "::coop::traced(" : "::coop::traced_load(";
      const SourceLocation end =
          Lexer::getLocForEndOfToken(element->getEndLoc(), 0, sm_, context_.getLangOpts());
      into_.edits.push_back({sm_.getFileOffset(element->getBeginLoc()), 0, traced, "shown"});
      into_.edits.push_back({sm_.getFileOffset(end), 0, ")", "shown"});
      ++into_.shown;
      return true;
    }
    switch (use) {
      case Use::Update:
        return not_shown(ref, "`" + text(user) + "` updates an element in place (only `" + written +
                                  " = v` is shown; `" + written + " = " + written +
                                  " + v` reads and writes it in two steps)");
      case Use::Address:
        return not_shown(ref, "`" + text(user) +
                                  "` takes an element's address: accesses "
                                  "through that pointer are not shown");
      case Use::Other:
        return not_shown(ref, "`" + written +
                                  "` is used by reference here: accesses through "
                                  "it are not shown");
      default:
        return true;  // a load of a buffer whose stores alone are shown, or the other way
    }
  }

  // Every line-limited entry that showed no access of a variable this file's device code uses,
  // with the file's first line as its place (a text that no line with such an access holds:
  // misspelt, or the code moved on). A file that never uses the variable, a header of the
  // program's, says nothing of it.
  void say_unused() {
    const SourceLocation file = sm_.getLocForStartOfFile(sm_.getMainFileID());
    for (const std::vector<std::string>* entries : {&names_.stores, &names_.loads})
      for (const std::string& entry : *entries) {
        const coop::ShownEntry e = coop::split_shown_entry(entry);
        if (e.line_text.empty() || used_.count(entry) || !seen_.count(std::string(e.name)))
          continue;
        if (std::string where = place_of(sm_, file); !where.empty())
          into_.skipped.push_back(
              {std::move(where), "not shown: `" + entry + "`: no line that holds `" +
                                     std::string(e.line_text) + "` " +
                                     (entries == &names_.stores ? "stores into " : "loads from ") +
                                     std::string(e.name)});
      }
  }

 private:
  // The nearest enclosing expression or statement that is not parentheses or an implicit
  // conversion (with `keep_load`, an lvalue-to-rvalue conversion, a load, is not skipped); null
  // when that is no statement, and then `declared` says whether a declaration's initializer.
  const Stmt* up(const Stmt* s, bool keep_load = false, bool* declared = nullptr) const {
    while (true) {
      const DynTypedNodeList parents = context_.getParents(*s);
      const Stmt* p = parents.empty() ? nullptr : parents[0].get<Stmt>();
      if (declared) *declared = !parents.empty() && parents[0].get<VarDecl>() != nullptr;
      const auto* cast = dyn_cast_or_null<ImplicitCastExpr>(p);
      if (cast && !(keep_load && cast->getCastKind() == CK_LValueToRValue)) {
        s = p;
        continue;
      }
      if (isa_and_nonnull<ParenExpr>(p)) {
        s = p;
        continue;
      }
      return p;
    }
  }

  // The text of the line `at` is written on (a macro's: where it is used).
  std::string_view line_of(SourceLocation at) const {
    const SourceLocation where = sm_.getExpansionLoc(at);
    const std::pair<FileID, unsigned> place = sm_.getDecomposedLoc(where);
    bool invalid = false;
    const StringRef text = sm_.getBufferData(place.first, &invalid);
    if (invalid || place.second > text.size()) return {};
    const size_t begin = text.rfind('\n', place.second == 0 ? 0 : place.second - 1);
    const size_t start = begin == StringRef::npos || place.second == 0 ? 0 : begin + 1;
    const size_t end = std::min(text.find('\n', place.second), text.size());
    return std::string_view(text.data() + start, end - start);
  }

  // The element `ref` names: `ref[i]` (`ref[i][j]` of a 2-D array), `*ref`, or a __shared__
  // variable that is neither array nor pointer, its own one element (`total = v`); null when the
  // buffer is used as a pointer (or a row of a 2-D array as one).
  const Expr* element_of(const DeclRefExpr* ref) const {
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
        var && var->hasAttr<CUDASharedAttr>() && !var->getType()->isArrayType() &&
        !var->getType()->isPointerType())
      return ref;
    const Expr* base = ref;
    const Expr* element = nullptr;
    for (const Stmt* p = up(ref);;) {
      const auto* subscript = dyn_cast_or_null<ArraySubscriptExpr>(p);
      if (subscript && subscript->getBase()->IgnoreParenImpCasts() == base) {
        element = subscript;
        if (!subscript->getType()->isArrayType()) return element;
        base = subscript;
        p = up(subscript);
        continue;
      }
      const auto* deref = dyn_cast_or_null<UnaryOperator>(p);
      if (deref && deref->getOpcode() == UO_Deref && base == ref) return deref;
      return nullptr;
    }
  }

  // How `element` is used, and the expression that uses it.
  Use use_of(const Expr* element, const Stmt** user) const {
    bool declared = false;
    const Stmt* p = up(element, true, &declared);
    *user = p == nullptr ? element : p;
    // A template's element of a type not yet known has no conversion to read it by: a use of it
    // as a value (here, a variable's initial value) is a load.
    if (p == nullptr && declared) return element->isTypeDependent() ? Use::Load : Use::Other;
    if (p == nullptr || isa<UnaryExprOrTypeTraitExpr>(p)) return Use::Unevaluated;
    if (const auto* cast = dyn_cast<ImplicitCastExpr>(p); cast) return Use::Load;
    const auto is = [&](const Expr* operand) { return operand->IgnoreParens() == element; };
    if (const auto* b = dyn_cast<BinaryOperator>(p); b && is(b->getLHS())) {
      if (b->getOpcode() == BO_Assign) return Use::Store;
      if (b->isCompoundAssignmentOp()) return Use::Update;
    }
    if (increment_or_decrement(p)) return Use::Update;
    if (const auto* u = dyn_cast<UnaryOperator>(p); u && u->getOpcode() == UO_AddrOf)
      return traced_by_itself(p) ? Use::Unevaluated : Use::Address;
    // In a template, an operator on a dependent type is a call of an operator not yet chosen.
    if (const auto* op = dyn_cast<CXXOperatorCallExpr>(p);
        op && op->getNumArgs() > 0 && is(op->getArg(0))) {
      const OverloadedOperatorKind kind = op->getOperator();
      if (kind == OO_Equal) return Use::Store;
      if (kind == OO_PlusPlus || kind == OO_MinusMinus ||
          (kind >= OO_PlusEqual && kind <= OO_GreaterGreaterEqual))
        return Use::Update;
    }
    if (traced_by_itself(p)) return Use::Unevaluated;
    if (element->isTypeDependent()) return Use::Load;
    return Use::Other;
  }

  // An atomic (CUDA's atomic functions, cuda::atomic_ref) records itself, and so does an access
  // the program already writes as traced(x).
  bool traced_by_itself(const Stmt* s) const {
    for (; s != nullptr; s = up(s)) {
      if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_AddrOf) continue;
      if (const auto* call = dyn_cast<CallExpr>(s)) {
        // In a template, a call not yet resolved names its candidates.
        const FunctionDecl* callee = call->getDirectCallee();
        const auto* candidates = dyn_cast<OverloadExpr>(call->getCallee()->IgnoreParenImpCasts());
        const std::string name = callee       ? callee->getNameAsString()
                                 : candidates ? candidates->getName().getAsString()
                                              : "";
        return name.starts_with("atomic") || name.starts_with("__atomic") || name == "traced" ||
               name == "traced_load";
      }
      if (const auto* make = dyn_cast<CXXConstructExpr>(s))
        return make->getType().getAsString().find("atomic_ref") != std::string::npos;
      return false;
    }
    return false;
  }

  // The buffer used as a pointer: accesses through a pointer made from it are not shown, but
  // comparing it, or handing it to an atomic, says nothing of them.
  bool pointer_use(const DeclRefExpr* ref, const std::string& name) {
    const Stmt* p = up(ref);
    if (p == nullptr || isa<UnaryExprOrTypeTraitExpr>(p) || traced_by_itself(p)) return true;
    if (const auto* b = dyn_cast<BinaryOperator>(p); b && b->isComparisonOp()) return true;
    return not_shown(ref, "`" + text(p) + "` uses " + name +
                              " as a pointer: accesses through another pointer are not shown");
  }

  // Whether the value of assignment `e` is thrown away, as a statement's is.
  bool value_unused(const Stmt* e) const {
    const DynTypedNodeList parents = context_.getParents(*e);
    const Stmt* p = parents.empty() ? nullptr : parents[0].get<Stmt>();
    if (p == nullptr) return false;
    if (isa<ParenExpr, ExprWithCleanups>(p)) return value_unused(p);
    if (isa<CompoundStmt, LabelStmt, AttributedStmt, SwitchCase>(p)) return true;
    if (const auto* s = dyn_cast<IfStmt>(p)) return s->getCond() != e;
    if (const auto* s = dyn_cast<WhileStmt>(p)) return s->getCond() != e;
    if (const auto* s = dyn_cast<DoStmt>(p)) return s->getCond() != e;
    if (const auto* s = dyn_cast<ForStmt>(p)) return s->getInc() == e || s->getBody() == e;
    if (const auto* s = dyn_cast<CXXForRangeStmt>(p)) return s->getBody() == e;
    if (const auto* b = dyn_cast<BinaryOperator>(p); b && b->getOpcode() == BO_Comma)
      return b->getLHS() == e || value_unused(p);
    if (const auto* c = dyn_cast<CStyleCastExpr>(p)) return c->getType()->isVoidType();
    return false;
  }

  std::string text(const Stmt* s) const {
    std::string t = Lexer::getSourceText(CharSourceRange::getTokenRange(s->getSourceRange()), sm_,
                                         context_.getLangOpts())
                        .str();
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
  }

  bool not_shown(const DeclRefExpr* at, const std::string& why) {
    if (std::string where = place_of(sm_, at->getBeginLoc()); !where.empty())
      into_.skipped.push_back({std::move(where), "not shown: " + why});
    return true;
  }

  ASTContext& context_;
  const SourceManager& sm_;
  const ShownNames& names_;
  LaunchEdits& into_;
  std::set<std::string> used_;  // the entries that showed an access
  std::set<std::string> seen_;  // the named variables the main file's device code uses
};

// Each __global__ definition of the main file, for its block records.
class KernelVisitor : public RecursiveASTVisitor<KernelVisitor> {
 public:
  KernelVisitor(const SourceManager& sm, LaunchEdits& into) : sm_(sm), into_(into) {}
  bool VisitFunctionDecl(FunctionDecl* fn) {
    // A template's body once, as written: its instantiations share the text.
    if (!fn->hasAttr<CUDAGlobalAttr>() || !fn->doesThisDeclarationHaveABody() ||
        fn->isTemplateInstantiation())
      return true;
    const auto* body = dyn_cast_or_null<CompoundStmt>(fn->getBody());
    if (body == nullptr || body->getLBracLoc().isMacroID() ||
        !sm_.isWrittenInMainFile(body->getLBracLoc()))
      return true;
    const unsigned line = sm_.getSpellingLineNumber(fn->getLocation());
    into_.edits.push_back({sm_.getFileOffset(body->getLBracLoc()) + 1, 0,
                           "::coop::BlockRecord coop_block_record_(" + std::to_string(line) + ");",
                           "blocks"});
    ++into_.blocks;
    return true;
  }

 private:
  const SourceManager& sm_;
  LaunchEdits& into_;
};

}  // namespace

void collect_block_records(ASTContext& context, LaunchEdits& into) {
  KernelVisitor visitor(context.getSourceManager(), into);
  visitor.TraverseDecl(context.getTranslationUnitDecl());
}

void collect_shown_edits(ASTContext& context, const ShownNames& names, LaunchEdits& into) {
  if (names.empty()) return;
  ShownVisitor visitor(context, names, into);
  visitor.TraverseDecl(context.getTranslationUnitDecl());
  visitor.say_unused();
}

}  // namespace coop::frontend
