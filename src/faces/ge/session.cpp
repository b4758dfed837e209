#include "ge/ge_api.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "buffer_pool.h"
#include "graph_program.h"
#include "graph_run.h"
#include "messages.h"

namespace ropekit_ge {
namespace {

struct SessionState {
    std::mutex lock;
    std::map<uint32_t, std::shared_ptr<const Program>> graphs;
};

struct GlobalState {
    std::mutex lock;
    bool initialized = false;
    uint64_t next_session = 1;
    std::map<uint64_t, std::shared_ptr<SessionState>> sessions;
};

GlobalState &Global() {
    static GlobalState *state = new GlobalState; /* used until exit, by any thread */
    return *state;
}

/* The session's state, or NULL with the message set. */
std::shared_ptr<SessionState> FindSession(uint64_t id, const char *api, ge::Status *status) {
    GlobalState &g = Global();
    std::lock_guard<std::mutex> hold(g.lock);
    auto it = g.sessions.find(id);
    if (it != g.sessions.end())
        return it->second;
    *status = Fail(ACL_ERROR_GE_EXEC_NOT_INIT,
                   Format("%s: the session is not usable: %s", api,
                          g.initialized ? "it was made before GEInitialize or ended by GEFinalize"
                                        : "GEInitialize has not been called (or GEFinalize was)"));
    return nullptr;
}

const char *CStr(const std::string &s) {
    return s.c_str();
}
const char *CStr(const ge::AscendString &s) {
    return s.GetString();
}

template <typename Map> ge::Status Initialize(const Map &options) {
    for (const auto &kv : options) {
        std::string key = CStr(kv.first), value = CStr(kv.second);
        if (key == ge::OPTION_EXEC_DEVICE_ID) {
            char *end = nullptr;
            long id = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || id != 0)
                return Fail(ACL_ERROR_GE_PARAM_INVALID,
                            Format("GEInitialize: option %s = \"%s\": ropekit has one device, "
                                   "0 (the CPU)",
                                   key.c_str(), value.c_str()));
        } else if (key != ge::OPTION_GRAPH_RUN_MODE) {
            Warn(Format("GEInitialize: option %s = \"%s\" has no effect in ropekit", key.c_str(),
                        value.c_str()));
        }
    }
    GlobalState &g = Global();
    std::lock_guard<std::mutex> hold(g.lock);
    g.initialized = true;
    return ge::GRAPH_SUCCESS;
}

template <typename Map> void WarnOptions(const char *api, const Map &options) {
    for (const auto &kv : options)
        Warn(Format("%s: option %s = \"%s\" has no effect in ropekit", api, CStr(kv.first),
                    CStr(kv.second)));
}

ge::Status Add(uint64_t session, uint32_t graph_id, const ge::Graph &graph, const char *api) {
    ge::Status st = ge::GRAPH_SUCCESS;
    std::shared_ptr<SessionState> s = FindSession(session, api, &st);
    if (!s)
        return st;
    {
        std::lock_guard<std::mutex> hold(s->lock);
        if (s->graphs.count(graph_id))
            return Fail(ACL_ERROR_GE_PARAM_INVALID,
                        Format("%s: graph id %u is already in use in this session (RemoveGraph "
                               "frees it)",
                               api, static_cast<unsigned>(graph_id)));
    }
    std::shared_ptr<const Program> program;
    if ((st = BuildProgram(graph, graph_id, &program)) != ge::GRAPH_SUCCESS)
        return st;
    std::lock_guard<std::mutex> hold(s->lock);
    if (!s->graphs.insert(std::make_pair(graph_id, program)).second)
        return Fail(ACL_ERROR_GE_PARAM_INVALID,
                    Format("%s: graph id %u was added by another thread meanwhile", api,
                           static_cast<unsigned>(graph_id)));
    return ge::GRAPH_SUCCESS;
}

std::shared_ptr<const Program> FindGraph(uint64_t session, uint32_t graph_id, const char *api,
                                         ge::Status *st) {
    std::shared_ptr<SessionState> s = FindSession(session, api, st);
    if (!s)
        return nullptr;
    std::lock_guard<std::mutex> hold(s->lock);
    auto it = s->graphs.find(graph_id);
    if (it != s->graphs.end())
        return it->second;
    *st = Fail(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
               Format("%s: no graph with id %u in this session (AddGraph adds one)", api,
                      static_cast<unsigned>(graph_id)));
    return nullptr;
}

} // namespace
} // namespace ropekit_ge

namespace ge {

using ropekit_ge::FailFromException;

Status GEInitialize(const std::map<std::string, std::string> &options) {
    try {
        return ropekit_ge::Initialize(options);
    } catch (...) {
        return FailFromException("GEInitialize");
    }
}

Status GEInitialize(const std::map<AscendString, AscendString> &options) {
    try {
        return ropekit_ge::Initialize(options);
    } catch (...) {
        return FailFromException("GEInitialize");
    }
}

Status GEFinalize() {
    try {
        ropekit_ge::GlobalState &g = ropekit_ge::Global();
        std::map<uint64_t, std::shared_ptr<ropekit_ge::SessionState>> ended;
        {
            std::lock_guard<std::mutex> hold(g.lock);
            g.initialized = false;
            ended.swap(g.sessions);
        }
        ended.clear(); /* outside the lock; graphs still running finish */
        ropekit_ge::ReleaseIdleBuffers();
        return GRAPH_SUCCESS;
    } catch (...) {
        return FailFromException("GEFinalize");
    }
}

std::string GEGetErrorMsg() {
    return ropekit_ge::TakeErrors();
}
AscendString GEGetErrorMsgV2() {
    return AscendString(ropekit_ge::TakeErrors().c_str());
}
std::string GEGetWarningMsg() {
    return ropekit_ge::TakeWarnings();
}
AscendString GEGetWarningMsgV2() {
    return AscendString(ropekit_ge::TakeWarnings().c_str());
}

namespace {
uint64_t OpenSession() {
    ropekit_ge::GlobalState &g = ropekit_ge::Global();
    std::lock_guard<std::mutex> hold(g.lock);
    if (!g.initialized) {
        (void)ropekit_ge::Fail(ACL_ERROR_GE_EXEC_NOT_INIT,
                               "Session: GEInitialize has not been called; the session's calls "
                               "will fail");
        return 0;
    }
    uint64_t id = g.next_session++;
    g.sessions[id] = std::make_shared<ropekit_ge::SessionState>();
    return id;
}
} // namespace

Session::Session(const std::map<std::string, std::string> &options) {
    try {
        ropekit_ge::WarnOptions("Session", options);
        sessionId_ = OpenSession();
    } catch (...) {
        (void)FailFromException("Session");
    }
}

Session::Session(const std::map<AscendString, AscendString> &options) {
    try {
        ropekit_ge::WarnOptions("Session", options);
        sessionId_ = OpenSession();
    } catch (...) {
        (void)FailFromException("Session");
    }
}

Session::~Session() {
    std::shared_ptr<ropekit_ge::SessionState> ended;
    ropekit_ge::GlobalState &g = ropekit_ge::Global();
    std::lock_guard<std::mutex> hold(g.lock);
    auto it = g.sessions.find(sessionId_);
    if (it != g.sessions.end()) {
        ended = it->second;
        g.sessions.erase(it);
    }
}

Status Session::AddGraph(uint32_t graph_id, const Graph &graph) {
    try {
        return ropekit_ge::Add(sessionId_, graph_id, graph, "AddGraph");
    } catch (...) {
        return FailFromException("AddGraph");
    }
}

Status Session::AddGraph(uint32_t graph_id, const Graph &graph,
                         const std::map<std::string, std::string> &options) {
    try {
        ropekit_ge::WarnOptions("AddGraph", options);
        return ropekit_ge::Add(sessionId_, graph_id, graph, "AddGraph");
    } catch (...) {
        return FailFromException("AddGraph");
    }
}

Status Session::AddGraph(uint32_t graph_id, const Graph &graph,
                         const std::map<AscendString, AscendString> &options) {
    try {
        ropekit_ge::WarnOptions("AddGraph", options);
        return ropekit_ge::Add(sessionId_, graph_id, graph, "AddGraph");
    } catch (...) {
        return FailFromException("AddGraph");
    }
}

Status Session::AddGraphWithCopy(uint32_t graph_id, const Graph &graph) {
    return AddGraph(graph_id, graph);
}

Status Session::AddGraphWithCopy(uint32_t graph_id, const Graph &graph,
                                 const std::map<AscendString, AscendString> &options) {
    return AddGraph(graph_id, graph, options);
}

Status Session::RemoveGraph(uint32_t graph_id) {
    try {
        Status st = GRAPH_SUCCESS;
        std::shared_ptr<ropekit_ge::SessionState> s =
            ropekit_ge::FindSession(sessionId_, "RemoveGraph", &st);
        if (!s)
            return st;
        std::shared_ptr<const ropekit_ge::Program> removed;
        std::lock_guard<std::mutex> hold(s->lock);
        auto it = s->graphs.find(graph_id);
        if (it == s->graphs.end())
            return ropekit_ge::Fail(
                ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                ropekit_ge::Format("RemoveGraph: no graph with id %u in this session",
                                   static_cast<unsigned>(graph_id)));
        removed = it->second; /* a run of it on another thread keeps its own reference */
        s->graphs.erase(it);
        return GRAPH_SUCCESS;
    } catch (...) {
        return FailFromException("RemoveGraph");
    }
}

Status Session::RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs,
                         std::vector<Tensor> &outputs) {
    try {
        Status st = GRAPH_SUCCESS;
        std::shared_ptr<const ropekit_ge::Program> program =
            ropekit_ge::FindGraph(sessionId_, graph_id, "RunGraph", &st);
        if (!program)
            return st;
        return ropekit_ge::RunProgram(*program, inputs, outputs);
    } catch (...) {
        return FailFromException("RunGraph");
    }
}

bool Session::IsGraphNeedRebuild(uint32_t graph_id) {
    (void)graph_id;
    return false;
}

uint64_t Session::GetSessionId() const {
    return sessionId_;
}

} // namespace ge
