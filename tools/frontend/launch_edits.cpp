#include "tools/frontend/launch_edits.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

namespace coop::frontend {
namespace {

using namespace clang;

std::string quoted(std::string s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The edits of one construct: all of them, or none when one place is not the main file's text.
class Rewrite {
 public:
  Rewrite(const SourceManager& sm, const LangOptions& lang) : sm_(sm), lang_(lang) {}

  // Where each key location of the construct is written. A construct written in the main file
  // (also as a macro's argument, CHECK(k<<<1, 32>>>(x))) is edited there; one written in a
  // macro's body is edited in the body, and a part of it that is the macro's argument at the
  // parameter's place (so `#define RUN(k) k<<<1, 32>>>()` names the kernel `#k`).
  void locate(std::vector<SourceLocation> keys) {
    bool argument = false, body = false;
    for (SourceLocation l : keys) {
      if (l.isInvalid()) ok_ = false;
      if (l.isMacroID()) (sm_.isMacroArgExpansion(l) ? argument : body) = true;
    }
    mixed_ = argument && body;
    body_ = body;
  }
  // Written in a macro's body, which each expansion shares.
  bool in_macro_body() const { return body_; }
  SourceLocation at(SourceLocation l, bool* from_argument = nullptr) const {
    if (mixed_ && l.isMacroID() && sm_.isMacroArgExpansion(l)) {
      if (from_argument) *from_argument = true;
      l = sm_.getImmediateExpansionRange(l).getBegin();
    }
    return sm_.getSpellingLoc(l);
  }
  bool in_main(SourceLocation l) const {
    return l.isValid() && l.isFileID() && sm_.isWrittenInMainFile(l);
  }
  // The text of the tokens from `b` to `e` (both already mapped by at()).
  std::string text(SourceLocation b, SourceLocation e) {
    if (!in_main(b) || !in_main(e) || sm_.getFileOffset(e) < sm_.getFileOffset(b)) {
      ok_ = false;
      return "";
    }
    return Lexer::getSourceText(CharSourceRange::getTokenRange(b, e), sm_, lang_).str();
  }
  void replace(SourceLocation b, SourceLocation e, std::string with) {
    const std::string old = text(b, e);
    if (!ok_) return;
    with.append(std::count(old.begin(), old.end(), '\n'), '\n');  // keep the lines
    edits_.push_back({sm_.getFileOffset(b), unsigned(old.size()), std::move(with)});
  }
  void insert(SourceLocation l, std::string what) {
    if (!in_main(l)) ok_ = false;
    if (ok_) edits_.push_back({sm_.getFileOffset(l), 0, std::move(what)});
  }
  // A token of known spelling (`<<<`, `>>>`) replaced.
  void replace_token(SourceLocation l, const char* spelled, std::string with) {
    if (text(l, l) != spelled) ok_ = false;
    replace(l, l, std::move(with));
  }
  bool ok() const { return ok_; }
  std::vector<Edit>& edits() { return edits_; }

 private:
  const SourceManager& sm_;
  const LangOptions& lang_;
  bool ok_ = true, mixed_ = false, body_ = false;
  std::vector<Edit> edits_;
};

// `text` on one line, as an insertion must be to keep every line where it was; none when a
// comment or a directive in it would swallow what follows.
std::optional<std::string> one_line(std::string text) {
  for (const char* breaks : {"//", "/*", "#"})
    if (text.find(breaks) != std::string::npos) return std::nullopt;
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// The function a callee expression names, without casts and `&` (`(void*)&k`, `k`).
const Expr* kernel_expression(const Expr* e) {
  e = e->IgnoreParenCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
    e = u->getSubExpr()->IgnoreParenCasts();
  return e;
}

class Visitor : public RecursiveASTVisitor<Visitor> {
 public:
  explicit Visitor(ASTContext& context)
      : context_(context), sm_(context.getSourceManager()), policy_(context.getPrintingPolicy()) {
    policy_.SuppressTagKeyword = true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* call) {
    const CallExpr* config = call->getConfig();
    const Expr* callee = call->getCallee()->IgnoreImpCasts();
    if (!config) return skip(call->getBeginLoc(), "a launch without its configuration");
    const SourceLocation open = config->getCallee()->getBeginLoc(), close = config->getRParenLoc();
    Rewrite r(sm_, context_.getLangOpts());
    r.locate({callee->getBeginLoc(), callee->getEndLoc(), open, close, call->getRParenLoc()});
    bool from_argument = false;
    const SourceLocation b = r.at(callee->getBeginLoc(), &from_argument);
    const SourceLocation e = r.at(callee->getEndLoc());
    const std::string written = r.text(b, e);
    // In a macro's body the deduced arguments may differ from one expansion to the next.
    std::string full_name;
    const std::string deduced = r.in_macro_body() ? "" : deduced_arguments(callee, r, &full_name);
    const std::string name = from_argument       ? "#" + written
                             : full_name.empty() ? quoted(written + deduced)
                                                 : quoted(full_name);
    r.insert(b, "::coop::byo::launcher(" + name + ", ");
    if (!r.in_macro_body() && !deduce_in_template(call, r)) {
      return skip(call->getBeginLoc(), "a kernel template whose arguments cannot be deduced here");
    }
    r.replace_token(r.at(open), "<<<", ", ");
    r.replace_token(r.at(close), ">>>", ")");
    // Default arguments the launch leaves out: the pointer the runtime calls through has none.
    std::string defaults;
    unsigned given = 0;
    for (const Expr* arg : call->arguments()) {
      if (const auto* d = dyn_cast<CXXDefaultArgExpr>(arg)) {
        const std::string value = default_argument(*d, call->getDirectCallee());
        if (value.empty()) return skip(call->getBeginLoc(), "a default argument without text");
        defaults += (given++ || !defaults.empty() ? ", " : "") + value;
      } else {
        ++given;
      }
    }
    if (!defaults.empty()) r.insert(r.at(call->getRParenLoc()), defaults);
    return commit(r, call->getBeginLoc(), "a launch not written in this file", true);
  }

  bool VisitCallExpr(CallExpr* call) {
    if (isa<CUDAKernelCallExpr>(call) || call->getNumArgs() < 2) return true;
    const Expr* callee = call->getCallee()->IgnoreParenImpCasts();
    std::string api;
    if (const auto* ref = dyn_cast<DeclRefExpr>(callee)) api = ref->getNameInfo().getAsString();
    if (const auto* over = dyn_cast<OverloadExpr>(callee)) api = over->getName().getAsString();
    const char* to = api == "cudaLaunchCooperativeKernel" ? "::coop::byo::launch_cooperative"
                     : api == "cudaLaunchKernel"          ? "::coop::byo::launch_kernel"
                     : api == "cudaLaunchKernelEx"        ? "::coop::byo::launch_ex"
                                                          : nullptr;
    if (!to) return true;
    const unsigned index = api == "cudaLaunchKernelEx" ? 1 : 0;
    const Expr* arg = call->getArg(index);
    const Expr* kernel = kernel_expression(arg);
    const QualType type = kernel->getType();
    const bool typed = type->isFunctionType() || type->isFunctionPointerType() ||
                       type->isDependentType() ||
                       type->isSpecificBuiltinType(BuiltinType::Overload);
    Rewrite r(sm_, context_.getLangOpts());
    r.locate({callee->getBeginLoc(), arg->getBeginLoc(), arg->getEndLoc(), kernel->getBeginLoc(),
              kernel->getEndLoc(), call->getArg(0)->getBeginLoc()});
    if (!typed) {
      // A void* the kernel's type cannot be read from: CUDA's own call stays (the parentheses
      // keep the line lowering from rewriting it).
      r.replace(r.at(callee->getBeginLoc()), r.at(callee->getEndLoc()), "(" + api + ")");
      commit(r, call->getBeginLoc(), "", true);
      --result_.launches;
      return skip(call->getBeginLoc(), api + ": the kernel is a " + type.getAsString(policy_) +
                                           ", whose parameter types cannot be known");
    }
    const std::string kernel_text = r.text(r.at(kernel->getBeginLoc()), r.at(kernel->getEndLoc())) +
                                    deduced_arguments(kernel, r);
    r.replace(r.at(callee->getBeginLoc()), r.at(callee->getEndLoc()), to);
    if (index == 0) {
      r.replace(r.at(arg->getBeginLoc()), r.at(arg->getEndLoc()),
                quoted(kernel_text) + ", " + kernel_text);
    } else {
      r.insert(r.at(call->getArg(0)->getBeginLoc()), quoted(kernel_text) + ", ");
      r.replace(r.at(arg->getBeginLoc()), r.at(arg->getEndLoc()), kernel_text);
    }
    return commit(r, call->getBeginLoc(), api + " not written in this file", true);
  }

  // Each variable of a __shared__ declaration becomes a reference to the running block's copy
  // (device/lowering/lowering.hpp), all on the declaration's first line. One that declares its
  // union or struct with its members (CUB's `__shared__ union TempStorage { ... } temp;`) is
  // left to the line lowering, which keeps that declaration where it is written.
  bool VisitDeclStmt(DeclStmt* statement) {
    std::string lowered;
    int shared = 0;
    bool declares_type = false;
    for (const Decl* d : statement->decls()) {
      if (const auto* tag = dyn_cast<TagDecl>(d); tag && tag->isThisDeclarationADefinition())
        declares_type = true;
      const auto* var = dyn_cast<VarDecl>(d);
      if (!var || !var->hasAttr<CUDASharedAttr>()) continue;
      ++shared;
      if (var->isInvalidDecl() || var->getType()->containsErrors())
        return skip(statement->getBeginLoc(), "a __shared__ declaration Clang could not read");
      if (var->hasInit()) return skip(statement->getBeginLoc(), "a __shared__ initializer");
      lowered += shared_variable(*var);
    }
    if (!shared) return true;
    if (declares_type)
      return skip(statement->getBeginLoc(), "a __shared__ union or struct with its members");
    // Where it is written: `__shared__` itself is a macro of CUDA's headers.
    Rewrite r(sm_, context_.getLangOpts());
    r.replace(sm_.getExpansionRange(statement->getBeginLoc()).getBegin(),
              sm_.getExpansionRange(statement->getEndLoc()).getEnd(), lowered);
    if (r.ok()) result_.shared_variables += shared;
    return commit(r, statement->getBeginLoc(), "a __shared__ declaration not in this file", false);
  }

  LaunchEdits& result() { return result_; }

 private:
  // The template arguments Clang deduced for a kernel template named without (all of) them, as
  // `<float, 4>`; an edit spells them after the name, or in place of the partial list.
  std::string deduced_arguments(const Expr* callee, Rewrite& r, std::string* full_name = nullptr) {
    const auto* ref = dyn_cast<DeclRefExpr>(kernel_expression(callee));
    const auto* fn = ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
    const TemplateArgumentList* args = fn ? fn->getTemplateSpecializationArgs() : nullptr;
    if (!args || (ref->hasExplicitTemplateArgs() && ref->getNumTemplateArgs() == args->size()))
      return "";
    std::string printed;
    llvm::raw_string_ostream out(printed);
    printTemplateArgumentList(out, args->asArray(), policy_);
    out.flush();
    if (ref->hasExplicitTemplateArgs()) {
      // `k<4>` of k<int, typename>: the whole list in place of the one written, and in the name.
      if (full_name)
        *full_name =
            r.text(r.at(callee->getBeginLoc()), r.at(ref->getNameInfo().getEndLoc())) + printed;
      r.replace(r.at(ref->getLAngleLoc()), r.at(ref->getRAngleLoc()), printed);
      return "";
    }
    r.insert(Lexer::getLocForEndOfToken(r.at(ref->getNameInfo().getEndLoc()), 0, sm_,
                                        context_.getLangOpts()),
             printed);
    return printed;
  }

  // A launch in a template of a kernel template whose arguments only each instantiation knows
  // (`k<<<g, b>>>(p, n)` with p a T*) names the instance through the kernel's deducer
  // (device/byo/kernel_at.hpp), declared beside each candidate template: true when it did, or
  // when the callee needs none. False when one is needed but cannot be written.
  bool deduce_in_template(const CUDAKernelCallExpr* call, Rewrite& r) {
    const auto* lookup = dyn_cast<UnresolvedLookupExpr>(kernel_expression(call->getCallee()));
    if (!lookup) return true;
    // A plain kernel called with dependent arguments is found this way too: its address is one.
    const auto is_template = [](const NamedDecl* d) {
      return isa<FunctionTemplateDecl>(d->getUnderlyingDecl());
    };
    if (std::none_of(lookup->decls_begin(), lookup->decls_end(), is_template)) return true;
    if (call->getNumArgs() == 0) return false;
    for (const NamedDecl* d : lookup->decls()) {
      const auto* t = dyn_cast<FunctionTemplateDecl>(d->getUnderlyingDecl());
      if (!t || !declare_deducer(t->getCanonicalDecl())) return false;
    }
    const Expr* first = call->getArg(0);
    const Expr* last = call->getArg(call->getNumArgs() - 1);
    if (isa<CXXDefaultArgExpr>(first)) return false;
    for (unsigned i = call->getNumArgs(); i-- > 0;)  // the last argument written
      if (!isa<CXXDefaultArgExpr>(call->getArg(i))) {
        last = call->getArg(i);
        break;
      }
    const std::string args = r.text(r.at(first->getBeginLoc()), r.at(last->getEndLoc()));
    if (!one_line(args)) return false;
    const SourceLocation b = r.at(call->getCallee()->getBeginLoc());
    const SourceLocation name = r.at(lookup->getNameLoc());
    r.insert(b, "decltype(");
    r.replace(name, name, "coop_kernel_of_" + lookup->getName().getAsString());
    r.insert(Lexer::getLocForEndOfToken(r.at(call->getCallee()->getEndLoc()), 0, sm_,
                                        context_.getLangOpts()),
             "(" + *one_line(args) + "))::value");
    return r.ok();
  }

  // `template <P> auto coop_kernel_of_k(F) -> KernelAt<decltype(&k<N>), &k<N>>;` (N: the names
  // of P) after the first declaration of kernel template `t`, P and F as written, on its last
  // line, once.
  bool declare_deducer(const FunctionTemplateDecl* t) {
    if (deducers_.count(t)) return deducers_[t];
    bool& ok = deducers_[t] = false;
    const FunctionDecl* f = t->getTemplatedDecl();
    const TemplateParameterList* params = t->getTemplateParameters();
    if (f->getNumParams() == 0 || !t->getLocation().isFileID()) return false;
    std::string names;
    for (const NamedDecl* p : *params) {
      if (p->getName().empty()) return false;
      names += (names.empty() ? "" : ", ") + p->getNameAsString() +
               (p->isTemplateParameterPack() ? "..." : "");
    }
    Rewrite r(sm_, context_.getLangOpts());
    const std::string head = r.text(params->getTemplateLoc(), params->getRAngleLoc());
    const std::string parameters = r.text(f->getParamDecl(0)->getBeginLoc(),
                                          f->getParamDecl(f->getNumParams() - 1)->getEndLoc());
    const SourceLocation after =
        f->doesThisDeclarationHaveABody()
            ? Lexer::getLocForEndOfToken(f->getBodyRBrace(), 0, sm_, context_.getLangOpts())
            : Lexer::findLocationAfterToken(f->getEndLoc(), tok::semi, sm_, context_.getLangOpts(),
                                            false);
    if (!one_line(head) || !one_line(parameters)) return false;
    const std::string kernel = f->getNameAsString();
    const std::string instance = "&" + kernel + "<" + names + ">";
    r.insert(after, " " + *one_line(head) + " auto coop_kernel_of_" + kernel + "(" +
                        *one_line(parameters) + ") -> ::coop::byo::KernelAt<decltype(" + instance +
                        "), " + instance + ">;");
    if (!r.ok() || !after.isValid()) return false;
    for (Edit& e : r.edits()) result_.edits.push_back(std::move(e));
    return ok = true;
  }

  // A default argument as the launch must spell it: as written, or for a kernel template's
  // instance, as instantiated (`T(1)` of bump<int> is `int(1)`).
  std::string default_argument(const CXXDefaultArgExpr& d, const FunctionDecl* kernel) {
    if (kernel && kernel->isTemplateInstantiation()) {
      std::string printed;
      llvm::raw_string_ostream out(printed);
      d.getExpr()->printPretty(out, nullptr, policy_);
      return out.str();
    }
    return Lexer::getSourceText(sm_.getExpansionRange(d.getParam()->getDefaultArgRange()), sm_,
                                context_.getLangOpts())
        .str();
  }

  std::string shared_variable(const VarDecl& var) {
    const std::string name = var.getNameAsString();
    QualType type = var.getType();
    if (var.hasExternalStorage()) {
      const ArrayType* array = type->getAsArrayTypeUnsafe();
      const std::string element = (array ? array->getElementType() : type).getAsString(policy_);
      return element + "* " + name + " = reinterpret_cast<" + element +
             "*>(::coop::emu::dynamic_shared(\"" + name + "\", sizeof(" + element + "))); ";
    }
    const std::string slot =
        "coop_slot_" + name + "_" + std::to_string(sm_.getSpellingLineNumber(var.getLocation()));
    return "static const ::coop::emu::SharedSlot " + slot + "{\"" + name + "\", __LINE__}; auto& " +
           name + " = ::coop::emu::shared_decl<" + type.getAsString(policy_) + ">(" + slot + "); ";
  }

  bool skip(SourceLocation at, const std::string& why) {
    if (std::string where = place_of(sm_, at); !where.empty())
      result_.skipped.push_back({std::move(where), why});
    return true;
  }

  bool commit(Rewrite& r, SourceLocation at, const std::string& why, bool launch) {
    if (!r.ok()) return why.empty() ? true : skip(at, why);
    for (Edit& e : r.edits()) {
      e.kind = launch ? "launch" : "shared";
      result_.edits.push_back(std::move(e));
    }
    if (launch) ++result_.launches;
    return true;
  }

  ASTContext& context_;
  const SourceManager& sm_;
  PrintingPolicy policy_;
  LaunchEdits result_;
  std::map<const FunctionTemplateDecl*, bool> deducers_;  // declared, or refused
};

}  // namespace

std::string place_of(const SourceManager& sm, SourceLocation at) {
  const SourceLocation expansion = sm.getExpansionLoc(at);
  const PresumedLoc p = sm.getPresumedLoc(expansion);
  if (!p.isValid() || !sm.isWrittenInMainFile(expansion)) return "";
  return std::string(p.getFilename()) + ":" + std::to_string(p.getLine());
}

LaunchEdits collect_launch_edits(clang::ASTContext& context) {
  Visitor visitor(context);
  visitor.TraverseDecl(context.getTranslationUnitDecl());
  return std::move(visitor.result());
}

void sort_edits(LaunchEdits& result) {
  // A launch in a macro is seen once per expansion: its edits once. Of two that overlap, the first.
  std::stable_sort(result.edits.begin(), result.edits.end(),
                   [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
  std::vector<Edit> kept;
  for (Edit& e : result.edits) {
    const bool same = std::any_of(kept.begin(), kept.end(), [&](const Edit& k) {
      return k.offset == e.offset && k.length == e.length && k.text == e.text;
    });
    if (same) continue;
    if (!kept.empty() && kept.back().offset + kept.back().length > e.offset) continue;
    kept.push_back(std::move(e));
  }
  result.edits = std::move(kept);
}

}  // namespace coop::frontend
